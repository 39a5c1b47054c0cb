/**
 * Side-by-side comparison of two rollout sets (an HTTP run and an MCP run, or two harnesses).
 *
 * Rollouts are paired by (_ng_task_index, _ng_rollout_index); the rest fall back to a deep-equal task
 * input (`responses_create_params.input`), then to an equal `id`. Each pair gets its recorded and
 * recomputed rewards, its canonical action sequences aligned (lib/compare/actions), the first
 * divergence and a verdict. "Same actions, different reward" with calls on both sides and recomputed
 * rewards is the identity bug this project is about: the agent did the same thing, and only the names the
 * verifier saw differ (`names_decided` counts those).
 */
import type { Policy } from "../identity/types";
import { canonicalJson } from "../jsonl";
import { displayName } from "../names";
import type { Rollout } from "../schemas";
import {
  chooseServer,
  type InputIndex,
  knownTools,
  type Pairing,
  pairedInput,
  pairingIndices,
  pairingKey,
  type RunServerChoice,
  taskInputKey,
  verifyRollout,
} from "../verify";
import { type Action, actionsOf, aliasIndex } from "./actions";
import { type AlignedStep, alignSequences, type CappedAlignment, type StepKind } from "./align";

export type { AlignedStep, CappedAlignment, StepKind } from "./align";

export type Verdict = "same actions, same reward" | "same actions, different reward" | "different actions";

export type PairedBy = "indices" | "input" | "id";

export interface CompareOptions {
  readonly policy?: Policy;
  /** The verifying server of every pair; default the one lib/verify chooses for A's rollout, else B's. */
  readonly server?: string;
  /**
   * Materialized inputs or task rows, for rollouts that carry no task fields: each rollout is paired as
   * every command pairs it (lib/verify InputIndex: Gym's indices, else the task input).
   */
  readonly inputs?: InputIndex<unknown>;
  /** Each run's own server choice (lib/verify RunServerChoice), when the comparison names no server. */
  readonly runs?: { readonly a?: RunServerChoice; readonly b?: RunServerChoice };
}

/**
 * A rollout's pairing with the input rows, when rows are open (InputIndex refs are the rows themselves):
 * passed to lib/verify whole, so the result says how the row was found (or why none was), as the inspector's.
 */
function pairingOf(rollout: Rollout, inputs: InputIndex<unknown> | undefined): Pairing<unknown> | undefined {
  return inputs?.pair(rollout);
}

export interface SideReport {
  /** Position of the rollout in its input array. */
  readonly position: number;
  readonly recorded_reward: number | null;
  /** Recomputed under the chosen policy; null when it could not be computed (see error). */
  readonly reward: number | null;
  readonly error?: string;
  readonly actions: readonly Action[];
}

export interface Divergence {
  /** Position in `alignment`. */
  readonly step: number;
  readonly kind: Exclude<StepKind, "same">;
  readonly a: Action | null;
  readonly b: Action | null;
  /** One sentence: what differs. */
  readonly message: string;
}

export interface PairReport {
  readonly key: string;
  /** Gym's indices of the pair (A's rollout's, else B's): what a spreadsheet sorts a pair by. */
  readonly task_index: number | null;
  readonly rollout_index: number | null;
  readonly paired_by: PairedBy;
  readonly server: string;
  readonly a: SideReport;
  readonly b: SideReport;
  readonly alignment: readonly AlignedStep[];
  /** Set when the action sequences were too long to align within the cost bound (see ./align). */
  readonly alignment_capped: CappedAlignment | null;
  readonly first_divergence: Divergence | null;
  readonly same_actions: boolean;
  /** Which rewards the verdict compares: recomputed when both sides have one, else recorded. */
  readonly reward_basis: "recomputed" | "recorded";
  readonly same_reward: boolean;
  readonly verdict: Verdict;
  /**
   * Only the names can explain the different rewards: the same actions, tool calls on both sides and both
   * rewards recomputed, of the same task (the identity bug). Without a call, on recorded rewards, or between
   * two tasks, something else differs.
   */
  readonly names_decided: boolean;
  /**
   * Paired by Gym's indices, but the two task inputs differ: the runs are not of the same tasks (two
   * datasets' task 0), so the pair compares two tasks.
   */
  readonly tasks_differ: boolean;
  /**
   * Joined by a key several rollouts of a side share (Gym's repeats of one task, by their task input): the k-th
   * with the k-th in file order, so the pair compares two samples of a task, not one rollout run twice.
   */
  readonly repeats: PairRepeats | null;
  /** Pairs of one task share it (Gym's task index, else the whole key they were joined by): lib/compare/tasks. */
  readonly task_group: number;
}

export interface CompareSummary {
  readonly pairs: number;
  readonly unpaired_a: number;
  readonly unpaired_b: number;
  readonly same_actions_same_reward: number;
  /** Pairs with the same canonical actions and different rewards (the verdict), whatever the rewards were. */
  readonly same_actions_different_reward: number;
  /**
   * Of those, the ones only names can explain: tool calls on both sides and recomputed rewards (the identity
   * bug count). Recorded rewards, or rollouts without a tool call, can differ for what else the verifier
   * read (structeval's two runs answer in text and make no call).
   */
  readonly names_decided: number;
  /** Pairs whose verdict compares recomputed rewards; the others compare the rewards the files recorded. */
  readonly recomputed: number;
  readonly different_actions: number;
  /** Share of pairs whose rewards agree (0..1); null when nothing paired. */
  readonly parity_rate: number | null;
  /** Share of pairs whose action sequences agree (0..1); null when nothing paired. */
  readonly action_parity_rate: number | null;
  /** Pairs where either side makes a tool call: with none, the same actions are no actions at all. */
  readonly with_calls: number;
  /** Pairs paired by Gym's indices whose task inputs differ (see PairReport.tasks_differ). */
  readonly tasks_differ: number;
  /** Pairs joined among several rollouts of one key (see PairReport.repeats). */
  readonly among_repeats: number;
  /**
   * Pairs whose recomputed rewards agree but whose recorded ones differ: a file recorded a reward its
   * verifier does not give now (the inspector's drift), which reward parity alone would hide.
   */
  readonly recorded_differ: number;
}

export interface CompareReport {
  readonly policy: Policy;
  readonly pairs: readonly PairReport[];
  /** Positions (in a / b) of rollouts that found no partner. */
  readonly unpaired_a: readonly number[];
  readonly unpaired_b: readonly number[];
  readonly summary: CompareSummary;
}

function idKey(rollout: Rollout): string | null {
  const id = rollout.id;
  return typeof id === "string" || typeof id === "number" ? canonicalJson(id) : null;
}

/**
 * How many rollouts of each side share the key a pair was joined by, when more than one of either does (Gym's
 * repeated rollouts of one task, paired by their task input): the k-th is joined with the k-th in file order.
 */
export interface PairRepeats {
  readonly a: number;
  readonly b: number;
}

/** One pair of positions, how it was joined, and the task it is of (pairs of one task share task_group). */
export interface PairedPositions {
  readonly a: number;
  readonly b: number;
  readonly by: PairedBy;
  readonly key: string;
  readonly repeats: PairRepeats | null;
  readonly task_group: number;
}

/** Pairs positions of `a` and `b`: indices first, then equal input, then equal id; each rollout at most once. */
export function pairRollouts(
  a: readonly Rollout[],
  b: readonly Rollout[],
): {
  pairs: PairedPositions[];
  unpairedA: number[];
  unpairedB: number[];
} {
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  const pairs: PairedPositions[] = [];
  // Pairs of one task share a group: Gym's task index, else the whole key they were joined by (a label
  // keeps only its start, which tasks of one system prompt share).
  const groups = new Map<string, number>();
  const groupOf = (name: string) => {
    const known = groups.get(name);
    if (known !== undefined) return known;
    groups.set(name, groups.size);
    return groups.size - 1;
  };
  const strategies: [PairedBy, (r: Rollout) => string | null][] = [
    ["indices", pairingKey],
    ["input", taskInputKey],
    ["id", idKey],
  ];
  for (const [by, keyOf] of strategies) {
    const waiting = new Map<string, number[]>();
    b.forEach((row, j) => {
      if (usedB.has(j)) return;
      const k = keyOf(row);
      if (k === null) return;
      const list = waiting.get(k) ?? [];
      list.push(j);
      waiting.set(k, list);
    });
    // Rollouts of each side with each key, before any is joined: a pair among several is said.
    const inB = new Map([...waiting].map(([k, list]) => [k, list.length]));
    const inA = new Map<string, number>();
    const keysA = a.map((row, i) => {
      const k = usedA.has(i) ? null : keyOf(row);
      if (k !== null) inA.set(k, (inA.get(k) ?? 0) + 1);
      return k;
    });
    a.forEach((_, i) => {
      const k = keysA[i];
      if (k === null || k === undefined) return;
      const j = waiting.get(k)?.shift();
      if (j === undefined) return;
      usedA.add(i);
      usedB.add(j);
      // Said only where the task input joined them: Gym's indices are one rollout each, and an id shared
      // by several is no task's repeats.
      const repeats = { a: inA.get(k) ?? 1, b: inB.get(k) ?? 1 };
      const task = by === "indices" ? pairingIndices(a[i]!)?.task : undefined;
      pairs.push({
        a: i,
        b: j,
        by,
        key: by === "indices" ? k : `${by}:${shortKey(k)}`,
        repeats: by === "input" && (repeats.a > 1 || repeats.b > 1) ? repeats : null,
        task_group: groupOf(task === undefined ? `${by}\u0000${k}` : `task\u0000${task}`),
      });
    });
  }
  pairs.sort((x, y) => x.a - y.a);
  return {
    pairs,
    unpairedA: a.map((_, i) => i).filter((i) => !usedA.has(i)),
    unpairedB: b.map((_, j) => j).filter((j) => !usedB.has(j)),
  };
}

/** Keys can be whole task inputs; a pair label only needs to be recognizable. */
const KEY_LABEL_CHARS = 60;
function shortKey(k: string): string {
  return k.length <= KEY_LABEL_CHARS ? k : `${k.slice(0, KEY_LABEL_CHARS)}…`;
}

/** Aligns two action sequences by their equality keys (see ./align for the cost bound). */
export function alignActions(a: readonly Action[], b: readonly Action[]): AlignedStep[] {
  return alignSequences(a, b).steps;
}

function describeStep(step: AlignedStep): string {
  // Names come from the files: hidden characters are shown as ⟨U+XXXX⟩ (lib/names).
  const name = (x: Action) =>
    x.server === null ? displayName(x.tool) : `${displayName(x.server)}/${displayName(x.tool)}`;
  if (step.a !== null && step.b !== null) {
    if (step.a.server === step.b.server && step.a.tool === step.b.tool) {
      return `call ${step.a.index} (a) and ${step.b.index} (b): same tool ${name(step.a)}, different arguments.`;
    }
    return `call ${step.a.index} (a) is ${name(step.a)}, call ${step.b.index} (b) is ${name(step.b)}.`;
  }
  if (step.a !== null) return `call ${step.a.index} (${name(step.a)}) is only in a.`;
  if (step.b !== null) return `call ${step.b.index} (${name(step.b)}) is only in b.`;
  return "empty step";
}

function firstDivergence(alignment: readonly AlignedStep[]): Divergence | null {
  const step = alignment.findIndex((s) => s.kind !== "same");
  const s = alignment[step];
  if (s === undefined || s.kind === "same") return null;
  return { step, kind: s.kind, a: s.a, b: s.b, message: describeStep(s) };
}

interface SideContext {
  readonly server: string;
  readonly tools: readonly string[];
  readonly aliases: Map<string, Set<string>>;
}

function side(
  rollout: Rollout,
  position: number,
  ctx: SideContext,
  options: CompareOptions,
  pairing: Pairing<unknown> | undefined,
): SideReport {
  const result = verifyRollout(rollout, {
    server: ctx.server,
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...pairedInput(pairing),
  });
  // Identity comes from the contract's evidence; status and verifier name from the chosen policy's run.
  const actions = actionsOf(rollout, ctx).map((a, i) => {
    const call = result.resolution.calls[i];
    return call === undefined ? a : { ...a, status: call.status, verifier_name: call.verifier_name };
  });
  return {
    position,
    recorded_reward: result.recorded_reward,
    reward: result.reward,
    ...(result.error === undefined ? {} : { error: result.error }),
    actions,
  };
}

export function compareRuns(
  a: readonly Rollout[],
  b: readonly Rollout[],
  options: CompareOptions = {},
): CompareReport {
  const policy = options.policy ?? "contract";
  const { pairs, unpairedA, unpairedB } = pairRollouts(a, b);
  const contexts = new Map<string, SideContext>();
  const contextFor = (server: string): SideContext => {
    let ctx = contexts.get(server);
    if (ctx === undefined) {
      const tools = knownTools(server) ?? [];
      ctx = { server, tools, aliases: aliasIndex(server, tools) };
      contexts.set(server, ctx);
    }
    return ctx;
  };

  const reports = pairs.map((p): PairReport => {
    const ra = a[p.a];
    const rb = b[p.b];
    // pairRollouts only returns positions of a and b.
    if (ra === undefined || rb === undefined) throw new Error(`no rollout at pair ${p.a}/${p.b}`);
    // Each rollout is paired with its input row once: the server choice and its verification read it.
    const pairingA = pairingOf(ra, options.inputs);
    const pairingB = pairingOf(rb, options.inputs);
    const server =
      options.server ??
      chooseServer(ra, { ...options.runs?.a, input: pairingA?.ref ?? undefined }).server ??
      chooseServer(rb, { ...options.runs?.b, input: pairingB?.ref ?? undefined }).server ??
      "";
    const ctx = contextFor(server);
    const sa = side(ra, p.a, ctx, options, pairingA);
    const sb = side(rb, p.b, ctx, options, pairingB);
    const { steps: alignment, capped } = alignSequences(sa.actions, sb.actions);
    const divergence = firstDivergence(alignment);
    const recomputed = sa.reward !== null && sb.reward !== null;
    const [x, y] = recomputed ? [sa.reward, sb.reward] : [sa.recorded_reward, sb.recorded_reward];
    const sameReward = x === y;
    const sameActions = divergence === null;
    const [ka, kb] = p.by === "indices" ? [taskInputKey(ra), taskInputKey(rb)] : [null, null];
    const tasksDiffer = ka !== null && kb !== null && ka !== kb;
    const verdict: Verdict = !sameActions
      ? "different actions"
      : sameReward
        ? "same actions, same reward"
        : "same actions, different reward";
    const indices = pairingIndices(ra) ?? pairingIndices(rb);
    return {
      key: p.key,
      task_index: indices?.task ?? null,
      rollout_index: indices?.rollout ?? null,
      paired_by: p.by,
      server,
      a: sa,
      b: sb,
      alignment,
      alignment_capped: capped,
      first_divergence: divergence,
      same_actions: sameActions,
      reward_basis: recomputed ? "recomputed" : "recorded",
      same_reward: sameReward,
      verdict,
      names_decided:
        verdict === "same actions, different reward" &&
        recomputed &&
        !tasksDiffer &&
        sa.actions.length > 0 &&
        sb.actions.length > 0,
      tasks_differ: tasksDiffer,
      repeats: p.repeats,
      task_group: p.task_group,
    };
  });

  const count = (v: Verdict) => reports.filter((r) => r.verdict === v).length;
  const rate = (n: number) => (reports.length === 0 ? null : n / reports.length);
  return {
    policy,
    pairs: reports,
    unpaired_a: unpairedA,
    unpaired_b: unpairedB,
    summary: {
      pairs: reports.length,
      unpaired_a: unpairedA.length,
      unpaired_b: unpairedB.length,
      same_actions_same_reward: count("same actions, same reward"),
      same_actions_different_reward: count("same actions, different reward"),
      names_decided: reports.filter((r) => r.names_decided).length,
      recomputed: reports.filter((r) => r.reward_basis === "recomputed").length,
      different_actions: count("different actions"),
      parity_rate: rate(reports.filter((r) => r.same_reward).length),
      action_parity_rate: rate(reports.filter((r) => r.same_actions).length),
      with_calls: reports.filter((r) => r.a.actions.length > 0 || r.b.actions.length > 0).length,
      tasks_differ: reports.filter((r) => r.tasks_differ).length,
      among_repeats: reports.filter((r) => r.repeats !== null).length,
      recorded_differ: reports.filter(
        (r) =>
          r.reward_basis === "recomputed" &&
          r.same_reward &&
          r.a.recorded_reward !== null &&
          r.b.recorded_reward !== null &&
          r.a.recorded_reward !== r.b.recorded_reward,
      ).length,
    },
  };
}

/** The first call (B first, then A) attributed to a server whose verifier name is not its tool's name. */
export interface NameMismatch {
  readonly side: "a" | "b";
  readonly tool: string;
  readonly verifier_name: string;
  /** Calls of that side named so. */
  readonly count: number;
}

/** Why a pair with the same actions can score differently: the verifier did not see the tool's name. */
export function nameMismatch(pair: Pick<PairReport, "a" | "b">): NameMismatch | null {
  for (const side of ["b", "a"] as const) {
    const off = pair[side].actions.filter((x) => x.server !== null && x.verifier_name !== x.tool);
    const first = off[0];
    if (first !== undefined)
      return { side, tool: first.tool, verifier_name: first.verifier_name, count: off.length };
  }
  return null;
}

/** The name mismatch in words, as /compare's pair row says it: "B's verifier saw X for Y (5 calls)". */
export function nameMismatchText(mismatch: NameMismatch): string {
  return `${mismatch.side.toUpperCase()}'s verifier saw ${mismatch.verifier_name} for ${mismatch.tool}${mismatch.count > 1 ? ` (${mismatch.count} calls)` : ""}`;
}

/**
 * The sentence for pairs that score the same recomputed but recorded different rewards
 * (CompareSummary.recorded_differ), the same in every front end; null when there are none. It says no more
 * than that: which side's recorded reward is off, and why (scored without the map, another verifier), is
 * each rollout's why-zero in the inspector.
 */
export function recordedDifferText(count: number): string | null {
  if (count === 0) return null;
  const pairs = count === 1 ? "1 pair scores" : `${count} pairs score`;
  return `${pairs} the same here but recorded different rewards in the files: a recorded reward is not what its verifier gives here (each rollout's why-zero in the inspector says why)`;
}

/**
 * The sentence for pairs joined among repeats (CompareSummary.among_repeats), the same in every front end; `a`
 * and `b` as each names the sides.
 */
export function repeatsText(count: number, pairs: number, a: string, b: string): string {
  return `${count} of ${pairs} pairs join one of several rollouts of a task (the same task input in ${a} or ${b}) in file order: their verdicts and parities compare two samples of a task, not one rollout run twice`;
}
