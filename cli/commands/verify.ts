/**
 * `verify FILE`: recompute every rollout's reward with the registered verifier of its verifying server and
 * print it beside the recorded one, one JSON object per rollout line, in file order. The rollouts stream
 * (one line in memory at a time); a materialized-inputs file is loaded into a map first, as Gym's reverify does.
 */
import { HARNESSES, type HarnessId } from "../../lib/harness";
import type { Policy } from "../../lib/identity/types";
import { readJsonl } from "../../lib/jsonl";
import { pairingKey, verifyRollout } from "../../lib/verify";
import { onlyFile, readHarness, readPolicy, scanOptions } from "../args";
import type { CommandIo } from "../io";
import { openFileStream } from "../open";

export const HELP = `usage: npm run --silent cli -- verify FILE [--server S] [--inputs MATERIALIZED] [--policy contract|legacy] [--harness H]

Recomputes the reward of every rollout in FILE (JSONL, optionally gzip) with this project's port of the
verifying server's Gym verifier, after canonicalizing tool names by the call-identity contract
(docs/contract.md). Prints one JSON object per rollout line, in file order:

  {"line", "reward", "recorded_reward", "error"}

plus "components" where the verifier has reward components, and "gym_would_reject" (the reasons) when
Gym's strict request validation would refuse the verify request. reward is null when it cannot be
computed; error then says why (no verifier for the server, no paired input row, a request the server
would refuse). A line that cannot be read prints {"line", "error"}; the other lines are still verified.
A summary goes to stderr: rollouts, mean recorded and recomputed reward, how many rewards changed.

options:
  --server S             the verifying server; default: each rollout's environment_name, then its
                         input row's
  --inputs MATERIALIZED  the run's *_materialized_inputs.jsonl: each rollout is verified against the input
                         row with its (_ng_task_index, _ng_rollout_index), plus its own response and
                         mcp_tool_call_provenance; without it, the task fields echoed on the rollout are used
  --policy P             contract (default: follow provenance) or legacy (Gym before provenance)
  --harness H            the harness that produced FILE (alias diagnostics only); one of
                         ${HARNESSES.join(", ")}
  -h, --help             this text

exit status: 0 when FILE was read (bad lines included), 2 for unusable arguments or an unreadable FILE
or MATERIALIZED, 1 when reading stopped part way (e.g. corrupt gzip data).
`;

interface VerifyArgs {
  readonly file: string;
  readonly server: string | null;
  readonly inputs: string | null;
  readonly policy: Policy;
  readonly harness: HarnessId | null;
}

type ParsedArgs = { ok: true; args: VerifyArgs } | { ok: true; help: true } | { ok: false; error: string };

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const scanned = scanOptions(argv, ["--server", "--inputs", "--policy", "--harness"]);
  if (!scanned.ok || scanned.help) return scanned.ok ? { ok: true, help: true } : scanned;
  const { values, files } = scanned;
  const only = onlyFile(files);
  if (!only.ok) return only;

  const server = values.get("--server") ?? null;
  if (server === "") return { ok: false, error: "--server must not be empty" };
  const inputs = values.get("--inputs") ?? null;
  if (inputs === "") return { ok: false, error: "--inputs must not be empty" };
  const policy = readPolicy(values.get("--policy"));
  if (!policy.ok) return policy;
  const harness = readHarness(values.get("--harness"));
  if (!harness.ok) return harness;
  return {
    ok: true,
    args: { file: only.file, server, inputs, policy: policy.policy, harness: harness.harness },
  };
}

/** Output is gathered into chunks of about this many characters, so a big file is not one write per line. */
const OUTPUT_CHUNK_CHARS = 64 * 1024;

/** Input-file problems are listed on stderr up to this many; the rest are counted. */
const MAX_INPUT_WARNINGS = 10;

/** Decimal places of the means in the summary line. */
const SUMMARY_DECIMALS = 4;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Loads MATERIALIZED into a map by pairing key, warning on stderr about rows that cannot be paired. */
export async function loadInputs(path: string, io: CommandIo): Promise<Map<string, unknown>> {
  const stream = await openFileStream(path);
  const map = new Map<string, unknown>();
  let problems = 0;
  const warn = async (message: string) => {
    problems++;
    if (problems <= MAX_INPUT_WARNINGS) await io.stderr.write(`warning: ${path}: ${message}\n`);
  };
  for await (const item of readJsonl(stream)) {
    if (!item.ok) {
      await warn(`line ${item.line}: ${item.error}`);
      continue;
    }
    const key = pairingKey(item.value);
    if (key === null) {
      await warn(`line ${item.line}: no integer _ng_task_index and _ng_rollout_index; it cannot be paired`);
      continue;
    }
    // A repeated key keeps the last row, as Gym's dict does.
    map.set(key, item.value);
  }
  if (problems > MAX_INPUT_WARNINGS) {
    await io.stderr.write(`warning: ${path}: ${problems - MAX_INPUT_WARNINGS} more rows cannot be paired\n`);
  }
  return map;
}

class Summary {
  rollouts = 0;
  unreadable = 0;
  withoutReward = 0;
  changed = 0;
  private recordedSum = 0;
  private recordedCount = 0;
  private recomputedSum = 0;
  private recomputedCount = 0;

  add(recorded: number | null, recomputed: number | null): void {
    this.rollouts++;
    if (recorded !== null) {
      this.recordedSum += recorded;
      this.recordedCount++;
    }
    if (recomputed === null) this.withoutReward++;
    else {
      this.recomputedSum += recomputed;
      this.recomputedCount++;
    }
    if (recorded !== null && recomputed !== null && recorded !== recomputed) this.changed++;
  }

  line(policy: Policy): string {
    const mean = (sum: number, count: number) =>
      count === 0 ? "n/a" : `${(sum / count).toFixed(SUMMARY_DECIMALS)} (of ${count})`;
    return (
      `verify (${policy}): ${this.rollouts} rollouts` +
      (this.unreadable > 0 ? `, ${this.unreadable} unreadable lines` : "") +
      `; mean recorded reward ${mean(this.recordedSum, this.recordedCount)}` +
      `, mean recomputed reward ${mean(this.recomputedSum, this.recomputedCount)}` +
      `; ${this.changed} changed, ${this.withoutReward} without a recomputed reward\n`
    );
  }
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
  const { file, server, inputs, policy, harness } = parsed.args;

  let inputRows: Map<string, unknown> | null = null;
  if (inputs !== null) {
    try {
      inputRows = await loadInputs(inputs, io);
    } catch (error) {
      await io.stderr.write(`error: ${messageOf(error)}\n`);
      return 2;
    }
  }

  let stream: ReadableStream<Uint8Array>;
  try {
    stream = await openFileStream(file);
  } catch (error) {
    await io.stderr.write(`error: ${messageOf(error)}\n`);
    return 2;
  }

  let pending = "";
  const emit = async (record: unknown) => {
    pending += `${JSON.stringify(record)}\n`;
    if (pending.length >= OUTPUT_CHUNK_CHARS) {
      const chunk = pending;
      pending = "";
      await io.stdout.write(chunk);
    }
  };

  const summary = new Summary();
  try {
    for await (const item of readJsonl(stream)) {
      if (!item.ok) {
        summary.unreadable++;
        await emit({ line: item.line, error: item.error });
        continue;
      }
      let input: unknown;
      let pairingError: string | null = null;
      if (inputRows !== null) {
        const key = pairingKey(item.value);
        input = key === null ? undefined : inputRows.get(key);
        if (key === null)
          pairingError = "no integer _ng_task_index and _ng_rollout_index to pair with --inputs";
        else if (input === undefined) pairingError = `no row of --inputs has the key ${key} (task:rollout)`;
      }
      const result = verifyRollout(item.value, {
        policy,
        ...(server === null ? {} : { server }),
        ...(harness === null ? {} : { harness }),
        ...(input === undefined ? {} : { input }),
      });
      // Unpaired under --inputs: Gym's reverify stops; we report the line and go on.
      const reward = pairingError === null ? result.reward : null;
      const error = pairingError ?? result.error ?? null;
      summary.add(result.recorded_reward, reward);
      await emit({
        line: item.line,
        reward,
        recorded_reward: result.recorded_reward,
        error,
        ...(pairingError === null && result.components !== undefined
          ? { components: result.components }
          : {}),
        ...(result.gym_would_reject === undefined ? {} : { gym_would_reject: result.gym_would_reject }),
      });
    }
  } catch (error) {
    if (pending !== "") await io.stdout.write(pending);
    await io.stderr.write(`error: reading ${file} stopped: ${messageOf(error)}\n`);
    await io.stderr.write(summary.line(policy));
    return 1;
  }
  if (pending !== "") await io.stdout.write(pending);
  await io.stderr.write(summary.line(policy));
  return 0;
}
