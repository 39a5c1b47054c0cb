import type { DatasetSummary } from "./types";

type RunFile = Pick<DatasetSummary, "id" | "paired_inputs" | "paired_rows" | "servers" | "indexed">;

function pairedWithRows(run: RunFile): boolean {
  return run.paired_inputs !== null && run.paired_rows > 0;
}

/**
 * The open rollouts files a /compare link may pair with the shown one as run B, the likeliest first: runs of
 * the same task rows, then of a verifying server in common (its rows' servers), then those nothing tells
 * apart (rows not read yet, or neither with a verifying server); a file whose rows go to other servers, or
 * to none where the shown one's go to one, or (neither verified here) either paired with rows of a task file
 * the other did not pair with, is another experiment, never offered.
 */
export function comparableRuns(
  shown: RunFile | null,
  sets: readonly (RunFile & Pick<DatasetSummary, "ref">)[],
): string[] {
  return sets
    .map((set, at) => ({
      ref: set.ref,
      score: set.id === shown?.id ? 3 : shown === null ? 0 : runAffinity(shown, set),
      at,
    }))
    .filter((candidate) => candidate.score >= 0)
    .sort((x, y) => y.score - x.score || x.at - y.at)
    .map((candidate) => candidate.ref);
}

/**
 * How surely two runs are of one experiment: 2 the same task rows, 1 a verifying server in common, 0 nothing
 * tells (rows not read yet, neither verified here and neither paired), -1 another experiment.
 */
export function runAffinity(shown: RunFile, candidate: RunFile): number {
  // Task rows both runs paired rows with (a lone inputs file is every file's pairing, matched or not).
  const sameTasks =
    candidate.paired_inputs !== null &&
    candidate.paired_inputs === shown.paired_inputs &&
    candidate.paired_rows > 0 &&
    shown.paired_rows > 0;
  if (sameTasks) return 2;
  if (!shown.indexed || !candidate.indexed) return 0;
  // Neither verified here: only rows paired with the same task file say two runs are of one experiment;
  // either paired with rows of its own task file, they are not (Gym's example folders, one environment each).
  if (shown.servers.length === 0 && candidate.servers.length === 0)
    return pairedWithRows(shown) || pairedWithRows(candidate) ? -1 : 0;
  return candidate.servers.some((server) => shown.servers.includes(server)) ? 1 : -1;
}

/**
 * The pairs of a folder's runs that are of one experiment (the same task rows, or a verifying server in
 * common: an HTTP run beside an MCP run of one server), in the files' order, for the whole folder's answer to
 * offer side by side (the caller gives its rollouts files), each with its runAffinity. Files not read yet pair
 * with nothing.
 */
export function folderComparisons<T extends RunFile>(sets: readonly T[]): { a: T; b: T; affinity: number }[] {
  const pairs: { a: T; b: T; affinity: number }[] = [];
  for (let i = 0; i < sets.length; i++)
    for (let j = i + 1; j < sets.length; j++) {
      const a = sets[i];
      const b = sets[j];
      if (a === undefined || b === undefined || !a.indexed || !b.indexed) continue;
      const affinity = runAffinity(a, b);
      if (affinity >= 1) pairs.push({ a, b, affinity });
    }
  return pairs;
}
