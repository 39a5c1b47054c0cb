/**
 * Test-side expectations for the /compare page, computed from the sample files with a rule of their
 * own (never the app's code path): pair by (_ng_task_index, _ng_rollout_index); two rollouts did the
 * same thing when their function_calls have the same tool (the emitted name with the harness prefix
 * `mcp__<env>__` or `mcp_<env>_` removed) and the same parsed arguments, in order; their rewards are
 * the rewards Gym recorded in the files.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { ROOT } from "./helpers";

export const SAMPLES = path.join(ROOT, "public/samples");

export type VerdictSlug = "same" | "identity-bug" | "different-actions";

type Row = Record<string, unknown>;

function isRow(value: unknown): value is Row {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function readRows(file: string): Row[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const value: unknown = JSON.parse(line);
      if (!isRow(value)) throw new Error(`${file}: a line is not an object`);
      return value;
    });
}

/** Sorted-key JSON, so argument objects compare by content. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (isRow(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

function actions(row: Row): string[] {
  const env = typeof row.environment_name === "string" ? row.environment_name : "";
  const response = isRow(row.response) ? row.response : {};
  const output = Array.isArray(response.output) ? response.output : [];
  return output.filter(isRow).flatMap((item) => {
    if (item.type !== "function_call" || typeof item.name !== "string") return [];
    const tool = item.name.replace(`mcp__${env}__`, "").replace(`mcp_${env}_`, "");
    const args = typeof item.arguments === "string" ? JSON.parse(item.arguments) : item.arguments;
    return [`${tool} ${stable(args)}`];
  });
}

export function verdictCounts(a: readonly Row[], b: readonly Row[]): Record<VerdictSlug, number> {
  const key = (r: Row) => `${r._ng_task_index}:${r._ng_rollout_index}`;
  const byKey = new Map(b.map((r) => [key(r), r]));
  const counts: Record<VerdictSlug, number> = { same: 0, "identity-bug": 0, "different-actions": 0 };
  for (const ra of a) {
    const rb = byKey.get(key(ra));
    if (rb === undefined) continue;
    const sameActions = stable(actions(ra)) === stable(actions(rb));
    if (!sameActions) counts["different-actions"]++;
    else if (ra.reward === rb.reward) counts.same++;
    else counts["identity-bug"]++;
  }
  return counts;
}

/** The first comparison on a cold server also loads the worker bundle and the verifiers' data. */
const FIRST_COMPARE_TIMEOUT_MS = 45_000;

export async function waitCompared(page: Page): Promise<void> {
  await expect(page.getByTestId("compare-result")).toHaveAttribute("data-ready", "true", {
    timeout: FIRST_COMPARE_TIMEOUT_MS,
  });
}

export async function verdictsShown(page: Page): Promise<Record<VerdictSlug, number>> {
  const rows = page.locator("[data-testid=pair-table] tr[data-verdict]");
  return {
    same: await rows.and(page.locator("[data-verdict=same]")).count(),
    "identity-bug": await rows.and(page.locator("[data-verdict=identity-bug]")).count(),
    "different-actions": await rows.and(page.locator("[data-verdict=different-actions]")).count(),
  };
}
