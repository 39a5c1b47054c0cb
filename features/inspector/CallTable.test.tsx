/**
 * The call list: each call's status, emitted name, call_id, what provenance says and what the verifier
 * sees under each policy, its flags and its outcome in the verifier's replay; a click selects it; calls
 * still on their way show a placeholder; only a window of a long rollout is in the DOM; names from the
 * file are text. Calls and outcomes are the worker's own (openDetail, detailVerification) on bundled
 * samples and the XSS fixture.
 */
import { readFileSync } from "node:fs";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { CallOutcome } from "@/components/badges";
import type { CallView } from "@/hooks/types";
import { rolloutWith } from "@/lib/identity/test-helpers";
import { asRollout } from "@/lib/schemas/test-helpers";
import { badgeAt } from "@/lib/triage";
import { analyzeRollout, detailVerification, openDetail, type RowContext } from "@/worker/core";
import { CallTable } from "./CallTable";
import styles from "./CallTable.module.css";

const NO_CONTEXT: RowContext = { input: undefined, override: null, sample: null, harness: null };
const EDGE = "public/samples/workplace-edge-cases.jsonl";
const HARNESSES = "public/samples/workplace-harnesses.jsonl";
const XSS = "e2e/fixtures/xss.jsonl";

/** A rollout's calls and their outcomes as the detail pane has them (app/_inspector/RolloutPane). */
function detailOf(value: unknown) {
  const rollout = asRollout(value);
  const entry = analyzeRollout(1, rollout, NO_CONTEXT);
  const detail = openDetail(entry, rollout, NO_CONTEXT, 0);
  const verification = detailVerification(rollout, NO_CONTEXT);
  const decisive = new Set(verification.triage?.decisive.map((call) => call.index) ?? []);
  return {
    calls: detail.calls(0, detail.view.call_count),
    outcomeOf: (index: number): CallOutcome => ({
      badge: badgeAt(verification.badges, index),
      decisive: decisive.has(index),
      policy: verification.outcome_policy,
    }),
    policy: verification.outcome_policy,
  };
}

const fileLine = (file: string, line: number): unknown =>
  JSON.parse(readFileSync(file, "utf8").split("\n")[line - 1] ?? "");

type Props = Parameters<typeof CallTable>[0];

function renderCalls(calls: readonly (CallView | undefined)[], props: Partial<Props> = {}) {
  const onSelect = vi.fn<(index: number) => void>();
  const onRange = vi.fn<(start: number, end: number) => void>();
  const all: Props = {
    count: calls.length,
    callAt: (index) => calls[index],
    onRange,
    selected: null,
    onSelect,
    ...props,
  };
  const { rerender } = render(<CallTable {...all} />);
  return {
    onSelect,
    onRange,
    rerender: (next: Partial<Props>) => rerender(<CallTable {...all} {...next} />),
  };
}

/** The row of call `index`. */
function call(index: number): HTMLElement {
  const row = document.querySelector<HTMLElement>(`.${styles.callRow}[data-call-index="${index}"]`);
  if (row === null) throw new Error(`call ${index} is not in the DOM`);
  return row;
}

/** The identity grid of a call row, term → description text. */
function grid(row: HTMLElement): Record<string, string | null> {
  const terms = [...row.querySelectorAll("dt")];
  return Object.fromEntries(terms.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? null]));
}

const renderedIndexes = () =>
  [...document.querySelectorAll<HTMLElement>(`.${styles.callsWindow} > li`)].map((li) =>
    Number(li.dataset.index),
  );

describe("CallTable", () => {
  it("shows each call's status, emitted name and call_id", () => {
    renderCalls(detailOf(fileLine(EDGE, 1)).calls);
    const head = (index: number) => within(call(index)).getByRole("button");
    expect(head(0)).toHaveTextContent("0externalmcp__github__email_search_emailscall_e_0_0");
    expect(within(head(0)).getByText("external")).toHaveAttribute("data-badge-status", "external");
    expect(within(head(2)).getByText("canonical")).toBeInTheDocument();
  });

  it("shows what provenance names and what the verifier sees under each policy", () => {
    renderCalls(detailOf(fileLine(EDGE, 1)).calls);
    // Provenance names the verifying server: the verifier sees the raw tool name; legacy stripped the prefix.
    expect(grid(call(2))).toEqual({
      provenance: "workplace_assistant / email_reply_email",
      "verifier sees": "email_reply_email",
      "legacy saw": "the same (legacy)",
    });
    // Another server's call: the verifier sees the emitted name, under both policies.
    expect(grid(call(0))).toEqual({
      provenance: "github / email_search_emails",
      "verifier sees": "mcp__github__email_search_emails (emitted name)",
      "legacy saw": "the same (bare)",
    });
  });

  it("says when there is no provenance, no call_id, or when legacy saw another name", () => {
    renderCalls(detailOf(fileLine(EDGE, 7)).calls);
    expect(grid(call(1)).provenance).toBe("none");
    expect(within(call(1)).getByRole("button")).toHaveTextContent("no call_id");
    // Provenance canonicalizes the cut-off alias; legacy showed the verifier the alias as emitted.
    expect(grid(call(0))).toEqual({
      provenance: "workplace_assistant / customer_relationship_manager_delete_customer",
      "verifier sees": "customer_relationship_manager_delete_customer",
      "legacy saw": "workplace_assistant__customer_relationship_manager_delete_custom (bare)",
    });
    expect(call(0).querySelector(`.${styles.legacyDiffers}`)).not.toBeNull();
  });

  it("shows an empty call_id as two quotes", () => {
    renderCalls(detailOf(rolloutWith([{ name: "email_reply_email", call_id: "" }])).calls);
    expect(within(call(0)).getByRole("button")).toHaveTextContent('0bareemail_reply_email""');
  });

  it("shows a call's flags with their message", () => {
    const { calls } = detailOf(fileLine(EDGE, 2));
    renderCalls(calls);
    const flag = call(0).querySelector<HTMLElement>('[data-flag="server_near_miss"]');
    const message = calls[0]?.contract.flags[0]?.message ?? "";
    expect(message).not.toBe("");
    expect(flag).toHaveTextContent(`server_near_miss ${message}`);
    expect(call(2).querySelector("[data-flag]")).toBeNull();
  });

  it("badges each call with what it did in the verifier's replay, the decisive ones first", () => {
    const { calls, outcomeOf } = detailOf(fileLine(EDGE, 2));
    renderCalls(calls, { outcomeOf });
    const outcome = (index: number) => call(index).querySelector("[data-outcome]")?.textContent;
    expect(outcome(0)).toMatch(/^decisive · skipped: no tool named mcp__workplace-assistant__/);
    expect(outcome(2)).toBe("wrote crm_data.00000035");
    expect(call(0)).toHaveAttribute("data-decisive", "true");
    expect(call(2)).not.toHaveAttribute("data-decisive");
  });

  it("says whose replay a badge comes from: the legacy policy's when only it scored 0", () => {
    // A Claude Code alias with its provenance recorded: 1 under the contract, 0 under the legacy policy.
    const { calls, outcomeOf, policy } = detailOf(fileLine(HARNESSES, 21));
    expect(policy).toBe("legacy");
    renderCalls(calls, { outcomeOf });
    const skipped = document.querySelector('span[data-outcome="skipped"]');
    expect(skipped?.getAttribute("title")).toMatch(
      /^Decisive: this call lost the reward\. In the legacy policy's replay, Gym skipped it/,
    );
    const edge = detailOf(fileLine(EDGE, 2));
    expect(edge.policy).toBe("contract");
  });

  it("shows no outcome before the verification arrives", () => {
    renderCalls(detailOf(fileLine(EDGE, 2)).calls);
    expect(document.querySelector("[data-outcome]")).toBeNull();
  });

  it("a click selects the call; the selected call is marked", async () => {
    const { onSelect, rerender } = renderCalls(detailOf(fileLine(EDGE, 1)).calls);
    await userEvent.click(within(call(1)).getByRole("button"));
    expect(onSelect).toHaveBeenLastCalledWith(1);
    expect(call(1)).not.toHaveClass(String(styles.selected));
    rerender({ selected: 1 });
    expect(call(1)).toHaveClass(String(styles.selected));
    expect(call(0)).not.toHaveClass(String(styles.selected));
  });

  it("a rollout without calls says so", () => {
    renderCalls([]);
    expect(screen.getByText("This rollout makes no function calls.")).toBeInTheDocument();
  });

  it("a call still on its way shows a placeholder, and the calls on screen are asked for", () => {
    const { calls } = detailOf(fileLine(EDGE, 1));
    const { onRange } = renderCalls([calls[0], undefined, calls[2]]);
    expect(screen.getByText("call 1…")).toBeInTheDocument();
    expect(document.querySelector(`.${styles.callsWindow} > [data-index="1"]`)).toHaveAttribute(
      "data-pending",
    );
    expect(onRange).toHaveBeenLastCalledWith(0, 3);
  });

  it("a long rollout has only a window of its calls in the DOM, and asks for that window", () => {
    const { calls } = detailOf(fileLine(EDGE, 1));
    const many = Array.from({ length: 20_000 }, (_, i) => calls[i % calls.length]);
    const { onRange } = renderCalls(many);
    const shown = renderedIndexes();
    expect(shown[0]).toBe(0);
    expect(shown.length).toBeGreaterThan(2);
    expect(shown.length).toBeLessThan(50);
    expect(onRange).toHaveBeenLastCalledWith(0, shown.length);
  });

  it("shows a tool name, call_id and provenance from the file as text, never as markup", () => {
    renderCalls(detailOf(fileLine(XSS, 1)).calls);
    const row = call(0);
    expect(row.querySelector("img, script")).toBeNull();
    expect(row).toHaveTextContent('mcp__workplace_assistant__<img src=x onerror="window.__xss=1">');
    expect(row).toHaveTextContent("call_<script>window.__xss=1</script>_0");
    expect(grid(row).provenance).toBe("<script>window.__xss=1</script> / javascript:window.__xss=1");
  });
});
