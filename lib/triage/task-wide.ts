/**
 * The one cause decided over a run rather than a line: every rollout of a task failed the same way (the
 * same cause and the same failure signature: the same calls rejected with the same message, or the same
 * cells wrong). Then the task (its ground truth, its environment) is the first suspect, not the agent.
 * Only the agent-failure causes qualify: a run-health cause, drift or identity already names a root cause.
 */
import type { ZeroCause } from "./triage";

/**
 * A task needs at least this many rollouts before "every rollout failed the same way" says anything about
 * the task: one failed rollout is only that rollout.
 */
export const TASK_WIDE_MIN_ROLLOUTS = 2;

const AGENT_CAUSES: ReadonlySet<ZeroCause> = new Set(["no_tool_call", "tool_failed", "wrong_end_state"]);

export interface TaskFailure {
  readonly task: string | null;
  readonly cause: ZeroCause | null;
  readonly signature: string | null;
}

/** The tasks (by key) whose every rollout failed with the same agent-failure cause and signature. */
export function sameFailureTasks(rows: Iterable<TaskFailure>): Set<string> {
  const byTask = new Map<string, { n: number; signature: string | null; same: boolean }>();
  for (const row of rows) {
    if (row.task === null) continue;
    const agentFailure = row.cause !== null && AGENT_CAUSES.has(row.cause) && row.signature !== null;
    const seen = byTask.get(row.task);
    if (seen === undefined) {
      byTask.set(row.task, { n: 1, signature: row.signature, same: agentFailure });
      continue;
    }
    seen.n++;
    seen.same = seen.same && agentFailure && seen.signature === row.signature;
  }
  const tasks = new Set<string>();
  for (const [task, seen] of byTask) if (seen.same && seen.n >= TASK_WIDE_MIN_ROLLOUTS) tasks.add(task);
  return tasks;
}
