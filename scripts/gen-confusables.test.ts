import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { render } from "./gen-confusables";

describe("lib/names/confusables.generated.ts", () => {
  it("is what scripts/gen-confusables.ts writes from the pinned confusables data", () => {
    const committed = readFileSync(
      path.join(import.meta.dirname, "..", "lib", "names", "confusables.generated.ts"),
      "utf8",
    );
    expect(committed).toBe(render());
  });
});
