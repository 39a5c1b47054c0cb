/**
 * `verify FILE`: recompute every rollout's reward with the registered verifier of its verifying server and
 * print it beside the recorded one, one JSON object per rollout line, in file order. The rollouts stream
 * (one line in memory at a time); a materialized-inputs file is loaded into a map first, as Gym's reverify does.
 */
import { type AgentRewards, type LineKind, readLine, unparsedLine } from "../../lib/folder";
import { HARNESSES, type HarnessId } from "../../lib/harness";
import type { Policy } from "../../lib/identity/types";
import type { JsonlItem } from "../../lib/jsonl";
import { lineAgent, pairedInput, type UnverifiedCode, VerifyTally, verifyRollout } from "../../lib/verify";
import { emptyValue, onlyFile, readHarness, readPolicy, scanOptions } from "../args";
import { CliError, isReadStopped, reportError } from "../errors";
import {
  FOLDER_HELP,
  lineAt,
  metricsLines,
  type RoleOverride,
  readRoleOverrides,
  type Source,
  sourcesOf,
} from "../folder";
import { type CommandIo, lineBatcher, silentIo } from "../io";
import { namingFile, sayNotRollouts } from "../open";
import { terminalJson } from "../terminal";
import { LinePool, type LineWork, linesOf, readThreads, threadCount, threadsHelp } from "../threads";

export const HELP = `usage: npm run --silent cli -- verify FILE|DIR [--server S] [--inputs MATERIALIZED] [--policy contract|legacy] [--harness H]

Recomputes the reward of every rollout in FILE (JSONL, optionally gzip) with this project's port of the
verifying server's Gym verifier, after canonicalizing tool names by the call-identity contract
(docs/contract.md). Prints one JSON object per rollout line, in file order:

  {"line", "reward", "recorded_reward", "error", "server", "server_source", "paired_by", "unverified"}

server is the verifying server and server_source the evidence that chose it: override (--server), config
(a folder's Gym configs route the line),
environment_name, input (the paired row's environment_name), provenance (the only server in
mcp_tool_call_provenance), declared_tools (responses_create_params.tools fit exactly one verifier), or none.
paired_by says how the --inputs row was found: index (_ng_task_index, _ng_rollout_index), input (an equal
responses_create_params.input; several differing rows are ambiguous and never guessed) or none.
reward is null when the rollout is unverified; unverified is then a stable reason code (no_server,
no_verifier, ambiguous_input, missing_field, gym_refuses, not_a_rollout, verifier_error) and error one
sentence saying what to do. "components" appear where the verifier has reward components, and
"gym_would_reject" (the reasons) when Gym's request model refuses the request. A line that cannot be read
prints {"line", "error"}; the other lines are still verified. A summary goes to stderr: rollouts, mean
recorded and recomputed reward, how many rewards changed, how many are unverified and why.

${FOLDER_HELP}
options:
  --server S             the verifying server; default: chosen per rollout as server_source says
  --inputs MATERIALIZED  the run's *_materialized_inputs.jsonl (or a dataset such as example.jsonl): each
                         rollout is verified against its paired row plus its own response and
                         mcp_tool_call_provenance; an unpaired rollout uses the task fields echoed on it
  --policy P             contract (default: follow provenance) or legacy (Gym before provenance)
  --harness H            the harness that produced FILE (alias diagnostics only); one of
                         ${HARNESSES.join(", ")}
  --role PATH=ROLE       a folder file's role (repeatable; see above)
${threadsHelp(25)}
  -h, --help             this text

exit status: 0 when FILE was read (bad lines included), 2 for unusable arguments or an unreadable FILE
or MATERIALIZED, 1 when reading stopped part way (e.g. corrupt gzip data).
`;

interface VerifyArgs {
  readonly file: string;
  readonly roles: readonly RoleOverride[];
  readonly server: string | null;
  readonly inputs: string | null;
  readonly policy: Policy;
  readonly harness: HarnessId | null;
  readonly threads: number | null;
}

type ParsedArgs = { ok: true; args: VerifyArgs } | { ok: true; help: true } | { ok: false; error: string };

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const scanned = scanOptions(
    argv,
    ["--server", "--inputs", "--policy", "--harness", "--role", "--threads"],
    ["--role"],
  );
  if (!scanned.ok || scanned.help) return scanned.ok ? { ok: true, help: true } : scanned;
  const { values, files, lists } = scanned;
  const only = onlyFile(files);
  if (!only.ok) return only;
  const roles = readRoleOverrides(lists.get("--role") ?? []);
  if (!roles.ok) return roles;

  const empty = emptyValue(values, ["--server", "--inputs"]);
  if (empty !== null) return empty;
  const server = values.get("--server") ?? null;
  const inputs = values.get("--inputs") ?? null;
  const policy = readPolicy(values.get("--policy"));
  if (!policy.ok) return policy;
  const harness = readHarness(values.get("--harness"));
  if (!harness.ok) return harness;
  const threads = readThreads(values.get("--threads"));
  if (!threads.ok) return threads;
  return {
    ok: true,
    args: {
      file: only.file,
      roles: roles.overrides,
      server,
      inputs,
      policy: policy.policy,
      harness: harness.harness,
      threads: threads.threads,
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One line's answer: its JSON output line, and for a rollout what the summary and Gym's metrics count. */
export interface VerifyLine {
  readonly out: string;
  /** Null for a line that is not a readable rollout. */
  readonly rewards: (AgentRewards & { readonly unverified: UnverifiedCode | null }) | null;
  /** For a line that is not a readable rollout: its kind (lib/folder LineKind). */
  readonly kind?: LineKind;
}

/** Verifies one line of `source`: the work of every thread (cli/threads.ts). */
function verifyLine(item: JsonlItem, source: Source, args: VerifyArgs): VerifyLine {
  const { server, policy, harness } = args;
  const at = lineAt(source, item.line);
  if (!item.ok) {
    const answer = unparsedLine(item.error, item.text ?? null);
    return {
      out: terminalJson({ ...at, kind: answer.kind, error: answer.message }),
      rewards: null,
      kind: answer.kind,
    };
  }
  // Parse once at the edge: a line that is not a rollout gets its kind, never a verifier.
  const read = readLine(item.value);
  if (!read.ok)
    return {
      out: terminalJson({ ...at, kind: read.kind, error: read.message }),
      rewards: null,
      kind: read.kind,
    };
  const pairing = source.inputRows?.pair(read.rollout);
  const result = verifyRollout(read.rollout, {
    policy,
    config: source.config,
    source: { rollouts: source.path, configs: source.configs, inputs: source.inputs },
    ...(server === null ? {} : { server }),
    ...(harness === null ? {} : { harness }),
    ...pairedInput(pairing),
  });
  const out = terminalJson({
    ...at,
    reward: result.reward,
    recorded_reward: result.recorded_reward,
    error: result.error ?? null,
    server: result.server,
    server_source: result.server_source,
    paired_by: result.paired_by,
    ...(result.unverified === undefined ? {} : { unverified: result.unverified.code }),
    ...(result.components === undefined ? {} : { components: result.components }),
    ...(result.gym_would_reject === undefined ? {} : { gym_would_reject: result.gym_would_reject }),
    ...(result.gym_alone === undefined ? {} : { gym_alone: result.gym_alone }),
    // How the line paired, when inputs are open and it did not pair or its indices and input disagree.
    ...(pairing !== undefined && (pairing.ref === null || pairing.disagreement !== undefined)
      ? { pairing: pairing.reason }
      : {}),
    ...(read.note === undefined ? {} : { read_as: read.note }),
  });
  return {
    out,
    rewards: {
      agent: lineAgent(read.rollout, pairing?.ref ?? undefined),
      recorded: result.recorded_reward,
      recomputed: result.reward,
      unverified: result.unverified?.code ?? null,
    },
  };
}

function verifyWork(sources: readonly Source[], args: VerifyArgs): LineWork<VerifyLine> {
  return { keepBytes: false, line: (item, index) => verifyLine(item, sources[index]!, args) };
}

/** `verify ARGV`'s work on a line, built in a worker thread from the same arguments (cli/threads-worker.ts). */
export async function threadWork(argv: readonly string[]): Promise<LineWork<VerifyLine>> {
  const parsed = parseArgs(argv);
  if (!parsed.ok || "help" in parsed) throw new Error("verify: the worker thread got unusable arguments");
  return verifyWork(await sourcesOf(parsed.args.file, parsed.args, silentIo), parsed.args);
}

/** Verifies every line of one source; throws when reading stops part way. Returns the readable lines. */
async function verifySource(
  lines: AsyncIterable<VerifyLine>,
  emit: (line: string) => Promise<void>,
  summary: VerifyTally,
  /** Each verified line's agent and rewards, for Gym's aggregate metrics. */
  agents: AgentRewards[],
  /** The kinds of the lines that are not rollouts. */
  kinds: Set<LineKind>,
): Promise<number> {
  let readable = 0;
  for await (const { out, rewards, kind } of lines) {
    if (kind !== undefined) kinds.add(kind);
    if (rewards === null) summary.unreadable++;
    else {
      summary.add(rewards.recorded, rewards.recomputed, rewards.unverified);
      agents.push({ agent: rewards.agent, recorded: rewards.recorded, recomputed: rewards.recomputed });
      readable++;
    }
    await emit(out);
  }
  return readable;
}

export async function run(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    await io.stderr.write(`error: verify: ${parsed.error} (try --help)\n`);
    return 2;
  }
  if ("help" in parsed) {
    await io.stdout.write(HELP);
    return 0;
  }
  const args = parsed.args;
  const { file } = args;

  let sources: readonly Source[];
  try {
    sources = await sourcesOf(file, args, io);
  } catch (error) {
    // A missing or unreadable file is a usage error (2); a damaged --inputs stops reading part way (1).
    return reportError(error, io);
  }

  const threads = await threadCount(args.threads, [...sources.map((s) => s.path)]);
  const pool =
    threads > 1 ? new LinePool<VerifyLine>("verify", argv, threads, { warnings: io.stderr }) : null;
  try {
    return await verifySources(sources, args, io, pool);
  } finally {
    await pool?.close();
  }
}

async function verifySources(
  sources: readonly Source[],
  args: VerifyArgs,
  io: CommandIo,
  pool: LinePool<VerifyLine> | null,
): Promise<number> {
  const { policy } = args;
  const work = verifyWork(sources, args);
  const stdout = lineBatcher(io.stdout);
  const summary = new VerifyTally();
  let stopped = false;
  for (const [index, source] of sources.entries()) {
    let readable: number;
    const agents: AgentRewards[] = [];
    const kinds = new Set<LineKind>();
    try {
      readable = await verifySource(
        namingFile(source.path, linesOf(source.path, index, work, pool)),
        stdout.line,
        summary,
        agents,
        kinds,
      );
    } catch (error) {
      await stdout.flush();
      if (isReadStopped(error)) {
        // A damaged gzip: its lines before the damage are verified and printed; the other files are read,
        // and the command exits 1 once done.
        await io.stderr.write(`error: ${error.message}\n`);
        stopped = true;
        continue;
      }
      if (error instanceof CliError) return reportError(error, io);
      await io.stderr.write(`error: reading ${source.path} stopped: ${messageOf(error)}\n`);
      await io.stderr.write(summary.line(policy));
      return 1;
    }
    await stdout.flush();
    for (const line of metricsLines(source, agents)) await io.stderr.write(line);
    // One sentence for a file without one rollout (an empty one, a folder's UTF-16 one: the page says it of each).
    if (readable === 0) await sayNotRollouts(source.path, io, kinds);
  }
  await io.stderr.write(summary.line(policy));
  return stopped ? 1 : 0;
}
