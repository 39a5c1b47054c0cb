/**
 * `export FILE --what verify|report [--server S] [--inputs M] [--policy P] [--set-reward] [--out OUT]`.
 */
import { parseArgs } from "node:util";
import { readSourceLines } from "../../lib/export";
import {
  emptyVerifySummary,
  reportJsonl,
  type VerifyExportSummary,
  verifyJsonl,
} from "../../lib/export/verify";
import type { Policy } from "../../lib/identity/types";
import { answerUsage, readPolicy, tryParse } from "../args";
import { reportError } from "../errors";
import { FOLDER_HELP, type RoleOverride, readRoleOverrides, type Source, sourcesOf } from "../folder";
import { inputsHelp, roleHelp } from "../inputs";
import type { CommandIo } from "../io";
import { namingFile, openFileStream, sayNotRollouts } from "../open";
import { writeOutput } from "../output";
import { terminalText } from "../terminal";

const HELP = `usage: npm run --silent cli -- export FILE|DIR --what verify|report [options]

  --what verify   FILE's rollouts, written losslessly, each with one added key
                  "rollout_inspector_verify": the recomputed reward, recorded reward, server, policy,
                  map state and per-call status / verifier name / flags. Untouched lines (blank, not
                  JSON) are written byte for byte; the recorded "reward" is kept unless --set-reward.
  --what report   one new JSON object per line: task/rollout index, recorded reward, the reward and
                  per-call statuses under both policies (contract and legacy), whether they differ,
                  and findings. Lines that are not JSON get a row with their error.

${FOLDER_HELP}
options:
  --server S      the verifying server (default: inferred per rollout by the verifier registry)
${inputsHelp(18)}
  --policy P      contract (default) | legacy, for --what verify
  --set-reward    --what verify: replace "reward" with the recomputed one (formatted like the original)
  --out OUT       write to OUT instead of stdout
                  (stdout is text: use --out for byte-exact output of lines with invalid UTF-8)
${roleHelp(18)}
  -h, --help      this help
`;

const OPTIONS = {
  what: { type: "string" },
  server: { type: "string" },
  inputs: { type: "string" },
  policy: { type: "string" },
  "set-reward": { type: "boolean" },
  out: { type: "string" },
  role: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

const WHATS = ["verify", "report"] as const;
type What = (typeof WHATS)[number];

export type ParsedExportArgs =
  | { ok: true; help: true }
  | {
      ok: true;
      help: false;
      file: string;
      roles: readonly RoleOverride[];
      what: What;
      server?: string;
      inputs?: string;
      policy: Policy;
      setReward: boolean;
      out?: string;
    }
  | { ok: false; error: string };

function isWhat(x: string): x is What {
  return (WHATS as readonly string[]).includes(x);
}

export function parseExportArgs(args: string[]): ParsedExportArgs {
  const parsed = tryParse(() => parseArgs({ args, options: OPTIONS, allowPositionals: true }));
  if (!parsed.ok) return parsed;
  const { values, positionals } = parsed.value;
  if (values.help) return { ok: true, help: true };
  const [file, ...extra] = positionals;
  if (file === undefined) return { ok: false, error: "missing FILE" };
  if (extra.length > 0) return { ok: false, error: `unexpected argument '${extra[0]}'` };
  const what = values.what;
  if (what === undefined) return { ok: false, error: `missing --what (${WHATS.join(" or ")})` };
  if (!isWhat(what)) return { ok: false, error: `unknown --what '${what}' (${WHATS.join(" or ")})` };
  const read = readPolicy(values.policy);
  if (!read.ok) return read;
  const roles = readRoleOverrides(values.role ?? []);
  if (!roles.ok) return roles;
  const policy = read.policy;
  const setReward = values["set-reward"] === true;
  if (setReward && what !== "verify")
    return { ok: false, error: "--set-reward only applies to --what verify" };
  return {
    ok: true,
    help: false,
    file,
    roles: roles.overrides,
    what,
    policy,
    setReward,
    ...(values.server === undefined ? {} : { server: values.server }),
    ...(values.inputs === undefined ? {} : { inputs: values.inputs }),
    ...(values.out === undefined ? {} : { out: values.out }),
  };
}

/** The lines without a reward, each named by its file when it came from a folder, then `cli verify`'s tally. */
function formatVerifySummary(s: VerifyExportSummary, policy: Policy): string {
  const at = (e: { file?: string; line: number }) =>
    `${e.file === undefined ? "" : `${terminalText(e.file)} `}line ${e.line}`;
  const lines: string[] = [];
  for (const e of s.errors) lines.push(`${at(e)}: ${terminalText(e.error)}`);
  for (const b of s.bad) lines.push(`${at(b)}: ${terminalText(b.error)} (written unchanged)`);
  return `${lines.map((line) => `${line}\n`).join("")}${s.tally.line(policy)}`;
}

const LF = 0x0a;

/**
 * Writes several files' lines as one JSONL output. Each file's lines are written as they were, the last
 * one's missing line break included; but the next file must start on a line of its own, or that last line
 * and its first would be one line of invalid JSON (Gym's gpqa_diamond and swebench rollouts end without one).
 */
function filesInto(output: { write(bytes: Uint8Array): Promise<unknown> }) {
  let last = LF;
  let started = false;
  return {
    async nextFile(): Promise<void> {
      if (started && last !== LF) {
        await output.write(new Uint8Array([LF]));
        last = LF;
      }
    },
    async write(bytes: Uint8Array): Promise<void> {
      if (bytes.length === 0) return;
      await output.write(bytes);
      started = true;
      last = bytes[bytes.length - 1] ?? LF;
    },
  };
}

const encoder = new TextEncoder();

export async function run(args: string[], io: CommandIo): Promise<number> {
  const parsed = parseExportArgs(args);
  if (!parsed.ok || parsed.help) return answerUsage(parsed, HELP, io);
  try {
    const sources = await sourcesOf(parsed.file, { roles: parsed.roles, inputs: parsed.inputs ?? null }, io);
    const readFiles = [
      ...sources.map((s) => s.path),
      ...(parsed.inputs === undefined ? [] : [parsed.inputs]),
    ];
    const optionsOf = (source: Source) => ({
      policy: parsed.policy,
      setReward: parsed.setReward,
      config: source.config,
      source: { rollouts: source.path, configs: source.configs, inputs: source.inputs },
      ...(source.file === null ? {} : { file: source.file }),
      ...(parsed.server === undefined ? {} : { server: parsed.server }),
      ...(source.inputRows === null ? {} : { inputs: source.inputRows }),
    });
    const linesOf = async (source: Source) =>
      namingFile(source.path, readSourceLines(await openFileStream(source.path)));
    if (parsed.what === "verify") {
      const summary = emptyVerifySummary();
      await writeOutput(parsed.out, readFiles, io, null, async (output) => {
        const into = filesInto(output);
        for (const source of sources) {
          const options = optionsOf(source);
          await into.nextFile();
          for await (const w of verifyJsonl(await linesOf(source), options, summary))
            await into.write(w.bytes);
        }
      });
      // One sentence for a single FILE without one rollout (task rows, an empty file), as cli verify says.
      const only = sources.length === 1 ? sources[0] : undefined;
      if (only !== undefined && only.file === null && summary.tally.rollouts === 0)
        await sayNotRollouts(
          only.path,
          io,
          [...summary.errors, ...summary.bad].flatMap((e) => (e.kind === undefined ? [] : [e.kind])),
        );
      await io.stderr.write(formatVerifySummary(summary, parsed.policy));
    } else {
      await writeOutput(parsed.out, readFiles, io, null, async (output) => {
        for (const source of sources) {
          const options = optionsOf(source);
          for await (const row of reportJsonl(await linesOf(source), options))
            await output.write(encoder.encode(row));
        }
      });
    }
    return 0;
  } catch (error) {
    return reportError(error, io);
  }
}
