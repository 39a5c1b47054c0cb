/**
 * `npm run cli` runs in the project's root whatever directory it is typed in: the paths after it are read
 * from where the user typed them (npm's INIT_CWD), as a shell user expects, both the input and --out.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const SERVERS = join(ROOT, "fixtures", "gym-examples", "resources_servers");
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("npm run cli from another directory", () => {
  it("reads relative paths from the directory it was typed in, input and --out alike", () => {
    const dir = mkdtempSync(join(tmpdir(), "cwd-"));
    dirs.push(dir);
    cpSync(join(SERVERS, "example_mcp_weather"), join(dir, "example_mcp_weather"), { recursive: true });
    // INIT_CWD emptied: npm sets it only when it is not set already (as under `npm test`).
    const run = spawnSync(
      "npm",
      [
        "run",
        "--silent",
        "--prefix",
        ROOT,
        "cli",
        "--",
        "triage",
        "example_mcp_weather",
        "--format",
        "csv",
        "--out",
        "rows.csv",
      ],
      { cwd: dir, encoding: "utf8", env: { ...process.env, INIT_CWD: "" } },
    );
    expect(run.stderr).not.toMatch(/cannot read/);
    expect(run.status).toBe(0);
    // A header and the folder's 5 rollouts, written beside the folder the user named.
    const csv = readFileSync(join(dir, "rows.csv"), "utf8");
    expect(csv.split("\n").filter((line) => line !== "")).toHaveLength(6);
  });
});
