import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ngRunCommand } from "./unverified";

describe("ng_run's config override", () => {
  it("reaches ng_run as one argument, the shell expanding nothing in the paths (Hydra's own grammar aside)", () => {
    for (const configs of [
      ["configs/workplace_assistant.yaml"],
      ["/Users/Jane Doe/run/configs/a.yaml", "/runs/b.yaml"],
      ['/runs/"quoted"/$HOME/`x`/a\\b!.yaml', "/runs/it's.yaml"],
    ]) {
      const command = ngRunCommand(configs);
      // ng_run's own argv, as a shell hands it over: `printf` stands in for the program.
      const argv = execFileSync("sh", ["-c", command.replace(/^ng_run /, "printf '%s\\n' ")], {
        encoding: "utf8",
      });
      expect(argv).toBe(`+config_paths=[${configs.join(",")}]\n`);
    }
    expect(ngRunCommand(["configs/a.yaml"])).toBe('ng_run "+config_paths=[configs/a.yaml]"');
  });
});
