/**
 * The /live page's decisions, as plain functions (no React): the policies a run checks, the deadline typed
 * in, the rollout a link or the picker names, and the check shown. use-live-page.ts applies them.
 */
import type { Policy } from "@/lib/identity/types";
import { DEFAULT_TIMEOUT_MS, type LineOptions } from "@/lib/live";

export type PolicyChoice = Policy | "both";

/** The policies each rollout is checked under, per choice. */
export const POLICIES: Record<PolicyChoice, readonly Policy[]> = {
  contract: ["contract"],
  legacy: ["legacy"],
  both: ["contract", "legacy"],
};

export function readPolicyChoice(value: string): PolicyChoice {
  return value === "contract" || value === "legacy" ? value : "both";
}

/** The deadline per request typed in (ms): a positive integer, else the default. */
export function readTimeout(text: string): number {
  const timeout = Number(text);
  return Number.isInteger(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS;
}

/** The line a link from the inspector names (`?line=`), or null when it names none or no line. */
export function linkedLine(param: string | null): number | null {
  const line = Number(param);
  return Number.isInteger(line) && line > 0 ? line : null;
}

/** The rollout chosen: the one on `line`, else the file's first. */
export function currentRollout<R extends { readonly line: number }>(
  rollouts: readonly R[],
  line: number | null,
): R | null {
  return rollouts.find((r) => r.line === line) ?? rollouts[0] ?? null;
}

/** The check shown: the one selected in the results, else the latest. */
export function shownCheck<C extends { readonly line: number; readonly policy: Policy }>(
  checks: readonly C[],
  selected: { readonly line: number; readonly policy: Policy } | null,
): C | null {
  return (
    (selected && checks.find((c) => c.line === selected.line && c.policy === selected.policy)) ??
    checks.at(-1) ??
    null
  );
}

/** How the line paired, naming the task row (a pairing by equal input says how, not which row). */
export function pairingText(pairing: LineOptions["pairing"]): string {
  if (pairing === undefined) return "";
  const row = pairing.row;
  return row === undefined || pairing.reason.includes(row)
    ? ` ${pairing.reason}`
    : ` Task row: ${row}. ${pairing.reason}`;
}
