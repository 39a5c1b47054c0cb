import { describe, expect, it } from "vitest";
import { emptyValue, onlyFile, readReward, scanOptions, splitTools } from "./args";

describe("CLI argument helpers", () => {
  it("readReward: --reward, or its alias --view, one setting; both must agree; recorded by default", () => {
    expect(readReward(new Map())).toEqual({ ok: true, reward: "recorded" });
    expect(readReward(new Map([["--reward", "contract"]]))).toEqual({ ok: true, reward: "contract" });
    expect(readReward(new Map([["--view", "legacy"]]))).toEqual({ ok: true, reward: "legacy" });
    expect(
      readReward(
        new Map([
          ["--view", "legacy"],
          ["--reward", "legacy"],
        ]),
      ),
    ).toEqual({ ok: true, reward: "legacy" });
    expect(
      readReward(
        new Map([
          ["--view", "legacy"],
          ["--reward", "contract"],
        ]),
      ).ok,
    ).toBe(false);
    const bad = readReward(new Map([["--view", "zero"]]));
    expect(bad).toEqual({ ok: false, error: expect.stringContaining("--view: the reward is one of") });
  });

  it("splitTools trims names and drops empty ones", () => {
    expect(splitTools("a, b ,,c,")).toEqual(["a", "b", "c"]);
    expect(splitTools(" , ")).toEqual([]);
  });

  it("emptyValue names the first option given with an empty value, in the order asked", () => {
    const scanned = scanOptions(["f", "--inputs=", "--server", ""], ["--server", "--inputs"]);
    if (!scanned.ok || scanned.help) throw new Error("scan failed");
    expect(emptyValue(scanned.values, ["--server", "--inputs"])).toEqual({
      ok: false,
      error: "--server must not be empty",
    });
    expect(emptyValue(scanned.values, ["--inputs"])).toEqual({
      ok: false,
      error: "--inputs must not be empty",
    });
    expect(emptyValue(new Map([["--server", "s"]]), ["--server", "--inputs"])).toBeNull();
  });

  it("scanOptions: both spellings, --help wins, everything after -- is a FILE, one-line errors", () => {
    expect(
      scanOptions(["a", "--server=x", "--policy", "legacy", "--", "--b"], ["--server", "--policy"]),
    ).toEqual({
      ok: true,
      help: false,
      values: new Map([
        ["--server", "x"],
        ["--policy", "legacy"],
      ]),
      lists: new Map(),
      files: ["a", "--b"],
    });
    // A repeatable option collects every value, in order.
    const roles = scanOptions(["d", "--role", "a=config", "--role=b=ignore"], ["--role"], ["--role"]);
    expect(roles).toMatchObject({ ok: true, lists: new Map([["--role", ["a=config", "b=ignore"]]]) });
    expect(scanOptions(["--nope", "-h"], [])).toEqual({ ok: false, error: "unknown option --nope" });
    // A single dash is an option too, never a file; the long form it may stand for is named.
    expect(scanOptions(["dir", "-o", "x.html"], ["--out"])).toEqual({
      ok: false,
      error: "unknown option -o (options are long: --out)",
    });
    expect(scanOptions(["-x"], ["--out"])).toEqual({ ok: false, error: "unknown option -x" });
    // Several options start so: each is named, none chosen.
    expect(scanOptions(["-f", "x"], ["--filter", "--format", "--out"])).toEqual({
      ok: false,
      error: "unknown option -f (options are long: --filter or --format)",
    });
    // A file whose name starts with a dash goes after `--`; a lone `-` is a file name.
    expect(scanOptions(["--", "-o"], ["--out"])).toMatchObject({ ok: true, files: ["-o"] });
    expect(scanOptions(["-"], ["--out"])).toMatchObject({ ok: true, files: ["-"] });
    expect(scanOptions(["-h", "--nope"], [])).toEqual({ ok: true, help: true });
    expect(scanOptions(["--server"], ["--server"])).toEqual({ ok: false, error: "--server needs a value" });
    expect(scanOptions(["--server", "a", "--server=b"], ["--server"])).toEqual({
      ok: false,
      error: "--server given twice",
    });
    expect(onlyFile([])).toEqual({ ok: false, error: "missing FILE" });
    expect(onlyFile(["a", "b"])).toEqual({ ok: false, error: "expected one FILE, got 2" });
  });
});
