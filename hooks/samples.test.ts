import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bundledSample, SampleSchema } from "./samples";

const samples = z
  .array(SampleSchema)
  .parse(JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../public/samples/index.json"), "utf8")));

describe("bundledSample (?sample=)", () => {
  it("opens only files listed in the samples index", () => {
    for (const sample of samples) expect(bundledSample(sample.file, samples)).toBe(sample);
  });

  it("never opens the licence, the source note, the index itself or a path", () => {
    for (const name of [
      "LICENSE",
      "SOURCE.md",
      "index.json",
      "../package.json",
      "/etc/passwd",
      ".hidden",
      "",
      null,
    ])
      expect(bundledSample(name, samples)).toBeNull();
  });
});
