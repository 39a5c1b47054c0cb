/**
 * A pair's verifier-name note in the /compare table: a divergence (the mismatched tone) only when the names
 * may have decided the reward; with the same actions and the same reward it is a neutral note.
 */
import { cleanup, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { styles, VerdictBadge } from "./common";
import { CompareSummaryBand, NameMismatch, PairTable, sharedErrors, TaskTable } from "./RunsView";
import type { CompareView, PairRow } from "./types";

function pair(verdict: PairRow["verdict"]): PairRow {
  const side = { line: 1, recorded: 1, reward: 1, error: null, calls: 2 };
  return {
    id: 0,
    key: "0/0",
    paired_by: "indices",
    server: "workplace_assistant",
    a: side,
    b: side,
    verdict,
    reward_basis: "recomputed",
    names_decided: verdict === "same actions, different reward",
    tasks_differ: false,
    repeats: null,
    divergence: null,
    divergence_step: null,
    name_mismatch: {
      side: "b",
      tool: "email_send_email",
      verifier_name: "mcp__wa__email_send_email",
      count: 2,
    },
  };
}

describe("NameMismatch", () => {
  it("is a neutral note when the pair has the same actions and the same reward", () => {
    render(<NameMismatch pair={pair("same actions, same reward")} />);
    const note = screen.getByTestId("name-mismatch");
    expect(note).toHaveAttribute("data-tone", "neutral");
    expect(note).toHaveClass(String(styles.nameMismatchNote));
    expect(note).not.toHaveClass(String(styles.nameMismatch));
    expect(note).toHaveTextContent(
      "Same actions, but B's verifier saw mcp__wa__email_send_email for email_send_email (2 calls): the rewards agree.",
    );
  });

  it("marks the names as the divergence when the same actions scored differently", () => {
    render(<NameMismatch pair={pair("same actions, different reward")} />);
    const note = screen.getByTestId("name-mismatch");
    expect(note).toHaveAttribute("data-tone", "divergent");
    expect(note).toHaveClass(String(styles.nameMismatch));
  });

  it("says nothing when every verifier name is the tool's", () => {
    const { container } = render(
      <NameMismatch pair={{ ...pair("same actions, same reward"), name_mismatch: null }} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

describe("VerdictBadge", () => {
  it("marks the same actions with different rewards as the identity bug only when the names decided it", () => {
    const { rerender } = render(
      <VerdictBadge verdict="same actions, different reward" basis="recomputed" namesDecided />,
    );
    const badge = () => screen.getByText(/same actions · different reward/);
    expect(badge().className).toContain(styles.verdictBug);
    // structeval's two runs answer in text: no call on either side, so the names decided nothing.
    rerender(
      <VerdictBadge verdict="same actions, different reward" basis="recomputed" namesDecided={false} />,
    );
    expect(badge().className).toContain(styles.verdictOther);
    expect(badge().className).not.toContain(styles.verdictBug);
    expect(badge().title).toMatch(/a side makes no tool call/);
  });

  it("says when the rewards compared are the recorded ones (nothing recomputed)", () => {
    render(<VerdictBadge verdict="same actions, same reward" basis="recorded" namesDecided={false} />);
    expect(screen.getByText(/same actions · same reward/).textContent).toBe(
      "same actions · same reward (recorded)",
    );
  });
});

describe("sharedErrors", () => {
  it("an error two pairs or more share is said once, with how many pairs it stopped", () => {
    const unverified = (error: string | null, b: string | null = error): PairRow => {
      const base = pair("same actions, same reward");
      return { ...base, a: { ...base.a, error }, b: { ...base.b, error: b } };
    };
    const port = "This project has no port of structeval's verifier.";
    expect(
      sharedErrors([unverified(port), unverified(port), unverified("its own", null), unverified(null)]),
    ).toEqual([{ error: port, pairs: 2 }]);
    expect(sharedErrors([unverified(port)])).toEqual([]);
  });
});

/** The pairs' table of `view`, closed, with no handler that matters here. */
function renderTable(view: CompareView) {
  return render(
    <PairTable
      view={view}
      verdicts={[]}
      sort="pair"
      open={null}
      detail={undefined}
      detailLoading={false}
      onOpen={() => {}}
      inspectorHref={() => null}
      onWhatIf={() => {}}
    />,
  );
}

describe("PairTable", () => {
  it("labels a pair found by task input with its lines, the input on hover, not the input's opening", () => {
    const prompt = `input:[{"content":"Today's date is Thursday, 2023-11-30 and the current time is 23:59:00"}]`;
    const byInput: PairRow = { ...pair("same actions, same reward"), key: prompt, paired_by: "input" };
    const view: CompareView = {
      a: "a.jsonl",
      b: "b.jsonl",
      policy: "contract",
      summary: {
        pairs: 1,
        unpaired_a: 0,
        unpaired_b: 0,
        same_actions_same_reward: 1,
        same_actions_different_reward: 0,
        names_decided: 0,
        recomputed: 1,
        different_actions: 0,
        parity_rate: 1,
        action_parity_rate: 1,
        with_calls: 1,
        tasks_differ: 0,
        among_repeats: 0,
        recorded_differ: 0,
      },
      pairs: [{ ...byInput, a: { ...byInput.a, line: 3 }, b: { ...byInput.b, line: 7 } }],
      tasks: {
        summary: { tasks: 1, repeated: 0, lower_in_b: 0, higher_in_b: 0, same: 1 },
        rows: [],
        differing: 0,
      },
      unpaired_a: [],
      unpaired_b: [],
      inputs_a: null,
      inputs_b: null,
      input_conflicts: 0,
    };
    const { container } = renderTable(view);
    const label = container.querySelector("[data-pair-label]");
    expect(label?.textContent).toBe("A 3 · B 7 (by input)");
    expect(label?.getAttribute("title")).toBe(prompt);
    expect(container.querySelector("[data-testid=tasks-differ]")).toBeNull();
    cleanup();
    // Two tasks under one pair of indices (two datasets' task 0): the row says so before anything else.
    const twoTasks = { ...view, pairs: [{ ...pair("same actions, different reward"), tasks_differ: true }] };
    const other = renderTable(twoTasks);
    expect(other.getByTestId("tasks-differ")).toHaveTextContent("Different tasks");
    cleanup();
    // The summary says the pairs that score the same but recorded different rewards, only when there are some.
    expect(render(<CompareSummaryBand view={view} />).queryByTestId("recorded-differ")).toBeNull();
    cleanup();
    const band = render(
      <CompareSummaryBand view={{ ...view, summary: { ...view.summary, recorded_differ: 1 } }} />,
    );
    expect(band.getByTestId("recorded-differ")).toHaveTextContent(
      "1 pair scores the same here but recorded different rewards in the files",
    );
  });
});

describe("TaskTable", () => {
  const side = (passes: number, scored: number) => ({ passes, scored, mean: passes / scored });
  it("says how many tasks B scores lower, higher, the same, and lists those that differ, signed", () => {
    render(
      <TaskTable
        a="http.jsonl"
        b="mcp.jsonl"
        tasks={{
          summary: { tasks: 5, repeated: 5, lower_in_b: 1, higher_in_b: 1, same: 2 },
          differing: 2,
          rows: [
            { label: "task 3", task_index: 3, pairs: 4, a: side(4, 4), b: side(1, 4), delta: -0.75 },
            { label: "task 0", task_index: 0, pairs: 4, a: side(1, 4), b: side(2, 4), delta: 0.25 },
          ],
        }}
      />,
    );
    expect(screen.getByTestId("compare-tasks-summary").textContent).toBe(
      "5 tasks, 5 with several rollouts paired: over the paired rollouts, B's mean reward is lower on 1, higher on 1, the same on 2 (1 without a reward on a side).",
    );
    const rows = [...screen.getByTestId("compare-tasks-table").querySelectorAll("tbody tr")].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => td.textContent),
    );
    expect(rows).toEqual([
      ["task 3", "4", "4 / 4", "1 / 4", "1.0000", "0.2500", "−0.7500"],
      ["task 0", "4", "1 / 4", "2 / 4", "0.2500", "0.5000", "+0.2500"],
    ]);
  });
});
