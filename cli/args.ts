/**
 * Argument helpers shared by the CLI commands: one option scanner with one-line errors, and the readers
 * for options several commands take (--policy, --harness, --tools, values that must not be empty).
 */
import { HARNESSES, type HarnessId, isHarnessId } from "../lib/harness";
import type { Policy } from "../lib/identity/types";
import { parseReward, type Reward } from "../lib/run";
import type { CommandIo } from "./io";

export type Scanned<Name extends string> =
  | { ok: true; help: true }
  | {
      ok: true;
      help: false;
      values: ReadonlyMap<Name, string>;
      /** Every value of each repeatable option, in order. */
      lists: ReadonlyMap<Name, readonly string[]>;
      files: readonly string[];
    }
  | { ok: false; error: string };

/**
 * Scans `--name value`, `--name=value`, `-h`/`--help` and positional FILEs (everything after `--` is a
 * FILE). Every option named in `valueOptions` takes exactly one value and may be given once, except those
 * in `repeatable`, which collect every value in `lists`.
 */
export function scanOptions<Name extends string>(
  argv: readonly string[],
  valueOptions: readonly Name[],
  repeatable: readonly Name[] = [],
): Scanned<Name> {
  const isValueOption = (name: string): name is Name => (valueOptions as readonly string[]).includes(name);
  const values = new Map<Name, string>();
  const lists = new Map<Name, string[]>();
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "-h" || arg === "--help") return { ok: true, help: true };
    if (arg === "--") {
      files.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg : arg.slice(0, eq);
      if (!isValueOption(name)) return { ok: false, error: `unknown option ${name}` };
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) return { ok: false, error: `${name} needs a value` };
      if (repeatable.includes(name)) {
        lists.set(name, [...(lists.get(name) ?? []), value]);
        continue;
      }
      if (values.has(name)) return { ok: false, error: `${name} given twice` };
      values.set(name, value);
      continue;
    }
    // A single dash before a name is an option here too, never a file (a file named so goes after `--`):
    // `-o x.html` read as files gave "expected one FILE, got 3".
    if (arg.length > 1 && arg.startsWith("-")) {
      const long = valueOptions.filter((option) => option.startsWith(`-${arg}`));
      const named = long.length <= 1 ? (long[0] ?? "") : `${long.slice(0, -1).join(", ")} or ${long.at(-1)}`;
      return {
        ok: false,
        error: `unknown option ${arg}${named === "" ? "" : ` (options are long: ${named})`}`,
      };
    }
    files.push(arg);
  }
  return { ok: true, help: false, values, lists, files };
}

/** `--policy`: contract (the default) or legacy. */
export function readPolicy(
  value: string | undefined,
): { ok: true; policy: Policy } | { ok: false; error: string } {
  const policy = value ?? "contract";
  if (policy === "contract" || policy === "legacy") return { ok: true, policy };
  return { ok: false, error: `--policy must be contract or legacy, not ${JSON.stringify(policy)}` };
}

/** The help line of `--reward` and its alias `--view`, the same in every command that takes them. */
export const REWARD_HELP = `  --reward R      the run view's one reward setting (the page's ?reward=): recorded (default: the
                  run's own), contract or legacy (a policy's recomputation). The breakdown counts zeros
                  in it; pass@k, "passed" and the distribution read it
  --view R        the same as --reward (its name when it chose the breakdown's zeros only)`;

/**
 * `--reward`, or its alias `--view` (lib/run parseReward: one setting for the breakdown's zeros and
 * pass@k); both given must agree. Default: the recorded reward.
 */
export function readReward(
  values: ReadonlyMap<string, string>,
): { ok: true; reward: Reward } | { ok: false; error: string } {
  const given = (["--reward", "--view"] as const).flatMap((name) => {
    const value = values.get(name);
    return value === undefined ? [] : [{ name, value }];
  });
  const [first, second] = given;
  if (first !== undefined && second !== undefined && first.value !== second.value)
    return { ok: false, error: "--view is another name for --reward: give one, or the same value" };
  const parsed = parseReward(first?.value);
  return parsed.ok ? parsed : { ok: false, error: `${first?.name ?? "--reward"}: ${parsed.error}` };
}

/** `--harness`: one of HARNESSES, or null when not given. */
export function readHarness(
  value: string | undefined,
): { ok: true; harness: HarnessId | null } | { ok: false; error: string } {
  if (value === undefined) return { ok: true, harness: null };
  if (isHarnessId(value)) return { ok: true, harness: value };
  return {
    ok: false,
    error: `--harness must be one of ${HARNESSES.join(", ")}, not ${JSON.stringify(value)}`,
  };
}

/** The usage outcomes every command answers the same way: an unusable argument (exit 2) or --help (exit 0). */
export async function answerUsage(
  parsed: { ok: false; error: string } | { ok: true; help: true },
  help: string,
  io: CommandIo,
): Promise<number> {
  if (!parsed.ok) {
    await io.stderr.write(`error: ${parsed.error}\n\n${help}`);
    return 2;
  }
  await io.stdout.write(help);
  return 0;
}

/** Runs a `node:util` parseArgs call, turning its thrown usage error into a one-line reason. */
export function tryParse<T>(parse: () => T): { ok: true; value: T } | { ok: false; error: string } {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** `--tools a,b,...`: the names, trimmed, empty ones dropped (a trailing comma is harmless). */
export function splitTools(list: string): string[] {
  return list
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

/** The first of `names` given with an empty value, as an error: an empty path or server is a slip, never meant. */
export function emptyValue<Name extends string>(
  values: ReadonlyMap<Name, string>,
  names: readonly Name[],
): { ok: false; error: string } | null {
  const empty = names.find((name) => values.get(name) === "");
  return empty === undefined ? null : { ok: false, error: `${empty} must not be empty` };
}

/** The single FILE a command reads. */
export function onlyFile(
  files: readonly string[],
): { ok: true; file: string } | { ok: false; error: string } {
  const [file] = files;
  if (file === undefined) return { ok: false, error: "missing FILE" };
  if (files.length > 1) return { ok: false, error: `expected one FILE, got ${files.length}` };
  return { ok: true, file };
}
