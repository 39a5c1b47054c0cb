import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "./gen-workplace-data";

describe("gen-workplace-data", () => {
  it("the committed data module matches the fixture CSVs", () => {
    const committed = readFileSync(
      join(process.cwd(), "lib/verifiers/workplace_assistant/data/csv-data.generated.ts"),
      "utf8",
    );
    expect(committed).toBe(generate());
  });
});
