/**
 * The why-zero panel on the generated triage run, through the worker's run view as the page gets it: the
 * headline counts the view's zeros over the rollouts (unreadable lines named apart), one button per cause
 * with its count and share filters the list, drift is counted apart, the view switch, the scope of a
 * filtered breakdown, which policy reproduces the recorded reward. Expected numbers come from the run's
 * plan (scripts/gen-triage-run), never from the component.
 */
import { readFileSync } from "node:fs";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { NO_HARNESS } from "@/lib/harness";
import { type Reward, unverifiedText } from "@/lib/run";
import { asRollout } from "@/lib/schemas/test-helpers";
import {
  REPRODUCTION_TEXT,
  recordedFieldsHeading,
  summarizeRecordedFields,
  summarizeTriage,
  type TriagedLine,
  ZERO_CAUSE_LABELS,
  ZERO_CAUSES,
  type ZeroCause,
} from "@/lib/triage";
import { buildTriageRun } from "@/scripts/gen-triage-run";
import { type RunView, runView } from "./run-view";
import { TriagePanel } from "./TriagePanel";
import styles from "./TriagePanel.module.css";

const run = buildTriageRun();
const values: unknown[] = run.text
  .trim()
  .split("\n")
  .map((text) => JSON.parse(text));

/** The run view of the generated run, as the worker answers the page. */
function view(filter = ""): Promise<RunView> {
  return runView(
    {
      key: `triage-${filter}`,
      harness: NO_HARNESS,
      unreadable: run.unreadable.length,
      *rollouts() {
        for (const intent of run.intents)
          yield { line: intent.line, value: asRollout(values[intent.line - 1]), options: {} };
      },
    },
    filter,
  );
}

let whole: RunView;
beforeAll(async () => {
  whole = await view();
});

type Props = Parameters<typeof TriagePanel>[0];

function renderPanel(props: Partial<Props> = {}) {
  const onCause = vi.fn<(cause: ZeroCause | null) => void>();
  const onReward = vi.fn<(reward: Reward) => void>();
  const onRecordedValue = vi.fn<(key: string, value: string) => void>();
  const onFixedByMap = vi.fn<(on: boolean) => void>();
  const all: Props = {
    recorded: whole.recorded_fields,
    recordedChoice: { clauses: new Set(), chosen: false },
    onRecordedValue,
    triage: whole.triage,
    reward: "recorded",
    onReward,
    counts: whole.counts,
    unverified: whole.unverified,
    active: null,
    scope: null,
    onCause,
    fixedByMapActive: false,
    onFixedByMap,
    repairHref: (harness) => `/compare?tab=repair&r=run.jsonl&harness=${harness}`,
    ...props,
  };
  const { rerender } = render(<TriagePanel {...all} />);
  return {
    onCause,
    onReward,
    onRecordedValue,
    onFixedByMap,
    rerender: (next: Partial<Props>) => rerender(<TriagePanel {...all} {...next} />),
  };
}

const causeButton = (cause: ZeroCause) => {
  const button = document.querySelector<HTMLButtonElement>(`button[data-cause="${cause}"]`);
  if (button === null) throw new Error(`no ${cause} button`);
  return button;
};

/** A cause as the panel names it: a tile (a button) or, with no rollout, its name in a line (text). */
const causeNamed = (cause: ZeroCause) => {
  const element = document.querySelector<HTMLElement>(`[data-cause="${cause}"]`);
  if (element === null) throw new Error(`no ${cause}`);
  return element;
};

/** A cause no rollout has is named as text, not offered as a control that cannot be used. */
const expectNamedOnly = (element: Element) => {
  expect(element.tagName).toBe("SPAN");
  expect(element).not.toHaveAttribute("role");
};

/** The rollouts of the plan recorded 0 with this cause; for drift, counted apart, every drifted one. */
const plannedZeros = (cause?: string) =>
  run.intents.filter(
    (i) => (i.recorded === 0 || cause === "drift") && (cause === undefined || i.cause === cause),
  ).length;

describe("TriagePanel", () => {
  it("counts a negative reward among the failed rollouts and names the negative ones (blackjack's losses)", async () => {
    const text = readFileSync(
      "fixtures/gym-examples/resources_servers/blackjack/data/example_rollouts.jsonl",
      "utf8",
    );
    const lines = text.trim().split("\n");
    const blackjack = await runView(
      {
        key: "blackjack",
        harness: NO_HARNESS,
        unreadable: 0,
        *rollouts() {
          for (const [i, line] of lines.entries())
            yield { line: i + 1, value: asRollout(JSON.parse(line)), options: { server: "blackjack" } };
        },
      },
      "",
    );
    renderPanel({ triage: blackjack.triage, counts: blackjack.counts });
    expect(screen.getByTestId("triage-headline")).toHaveTextContent(
      "2 of 5 rollouts recorded 0 or less (40.0%; 2 negative)",
    );
    expect(causeButton("no_verifier_port")).toHaveAttribute("data-count", "2");
  });

  it("the headline counts the recorded zeros over the rollouts, the unreadable line apart", () => {
    renderPanel();
    const zeros = plannedZeros();
    const rollouts = run.intents.length;
    expect(screen.getByTestId("triage-headline")).toHaveTextContent(
      `${zeros} of ${rollouts} rollouts recorded 0 (${((100 * zeros) / rollouts).toFixed(1)}%) · 1 unreadable line, not counted`,
    );
  });

  it("one button per cause with its count and share of the rollouts", () => {
    renderPanel();
    const rollouts = run.intents.length;
    for (const cause of ZERO_CAUSES) {
      const count = plannedZeros(cause);
      const button = count === 0 ? causeNamed(cause) : causeButton(cause);
      expect(button).toHaveTextContent(ZERO_CAUSE_LABELS[cause]);
      expect(button).toHaveAttribute("data-count", String(count));
      if (count === 0) {
        // A cause no rollout has cannot be chosen, and is named in one line with the others.
        expectNamedOnly(button);
        expect(screen.getByTestId("triage-none")).toContainElement(button);
        continue;
      }
      expect(button).toBeEnabled();
      expect(button.querySelector(`.${styles.causeCount}`)).toHaveTextContent(String(count));
      expect(button.querySelector(`.${styles.causeShare}`)).toHaveTextContent(
        `${((100 * count) / rollouts).toFixed(1)}%`,
      );
    }
  });

  it("says how many zeros wrote their call as text (lib/triage textCallsText), and nothing when none did", () => {
    const line = (n: number, text_call: boolean) => ({
      line: n,
      recorded: 0,
      contract: 0,
      legacy: 0,
      cause: "no_tool_call" as const,
      what_if_map: null,
      text_call,
    });
    const some = summarizeTriage([line(1, true), line(2, false)]);
    const { rerender } = renderPanel({
      triage: { recorded: some, contract: some, legacy: some },
      counts: { rollouts: 2, unreadable: 0 },
    });
    expect(screen.getByTestId("triage-text-calls")).toHaveTextContent(
      "1 of the 2 zeros writes its tool call as text and makes no function_call",
    );
    expect(screen.getByTestId("triage-text-calls")).toHaveTextContent("Filter: is:text_call.");
    const none = summarizeTriage([line(1, false)]);
    rerender({
      triage: { recorded: none, contract: none, legacy: none },
      counts: { rollouts: 1, unreadable: 0 },
    });
    expect(screen.queryByTestId("triage-text-calls")).toBeNull();
  });

  it("gives a tile to each cause with rollouts or chosen, and names the others in one line", () => {
    const line = (n: number, cause: ZeroCause | null) => ({
      line: n,
      recorded: 0,
      contract: 0,
      legacy: 0,
      cause,
      what_if_map: null,
      text_call: false,
    });
    const one = summarizeTriage([line(1, "tool_failed"), line(2, "tool_failed")]);
    const views = { recorded: one, contract: one, legacy: one };
    const { rerender } = renderPanel({ triage: views, counts: { rollouts: 2, unreadable: 0 } });
    const tiles = () =>
      [...document.querySelectorAll(`.${styles.triageCauses} button[data-cause]`)].map((b) =>
        b.getAttribute("data-cause"),
      );
    expect(tiles()).toEqual(["tool_failed"]);
    const none = screen.getByTestId("triage-none");
    // Folded into one line: they are not in the bar, and a tile each pushed the rollouts off the screen.
    expect(none.tagName).toBe("DETAILS");
    expect(none).not.toHaveAttribute("open");
    expect(none.querySelector("summary")).toHaveTextContent(
      `${ZERO_CAUSES.length - 2} other causes, with no rollout`,
    );
    const named = none.querySelectorAll("[data-cause]");
    expect(named).toHaveLength(ZERO_CAUSES.length - 2);
    for (const element of named) expectNamedOnly(element);
    expect(within(none).queryAllByRole("button")).toHaveLength(0);
    // Drift with no rollout is named in its own line too, apart from the agent's causes, not a tile.
    const drift = screen.getByTestId("triage-drift");
    expect(drift).toHaveTextContent("Counted apart, no rollout:");
    expectNamedOnly(causeNamed("drift"));
    expect(causeNamed("drift")).toHaveClass(String(styles.causeNone));
    expect(drift).toContainElement(causeNamed("drift"));
    // The cause the list is filtered to keeps its tile (to be cleared) though no rollout has it here.
    rerender({ triage: views, counts: { rollouts: 2, unreadable: 0 }, active: "identity" });
    expect(tiles()).toEqual(["identity", "tool_failed"]);
    expect(causeButton("identity")).toBeEnabled();
    // Chosen, drift keeps its tile though no rollout has it here.
    rerender({ triage: views, counts: { rollouts: 2, unreadable: 0 }, active: "drift" });
    expect(causeButton("drift")).toHaveClass(String(styles.cause));
    expect(causeButton("drift")).toBeEnabled();
  });

  it("a view with rollouts it has no reward for says so, and greys them in the bar rather than green", () => {
    // Gym's xlam_fc folder: nothing could be recomputed, so the contract view has no reward at all.
    const unverified = (n: number) => ({
      line: n,
      recorded: 0,
      contract: null,
      legacy: null,
      cause: null,
      what_if_map: null,
      text_call: false,
    });
    const rows = [1, 2, 3, 4, 5].map(unverified);
    const views = {
      recorded: summarizeTriage(rows, "recorded"),
      contract: summarizeTriage(rows, "contract"),
      legacy: summarizeTriage(rows, "legacy"),
    };
    renderPanel({ triage: views, reward: "contract", counts: { rollouts: 5, unreadable: 0 } });
    expect(screen.getByTestId("triage-headline")).toHaveTextContent(
      "0 of 5 rollouts recompute to 0 under contract (0.0%; 5 not recomputed)",
    );
    expect(screen.getByTestId("triage-bar-unscored")).toHaveAttribute("width", "100");
  });

  it("drift is counted apart from the agent's causes", () => {
    renderPanel();
    expect(plannedZeros("drift")).toBeGreaterThan(0);
    const apart = screen.getByTestId("triage-drift");
    expect(within(apart).getByRole("button")).toBe(causeButton("drift"));
    const grid = screen.getByTestId("triage-causes");
    expect(grid.querySelector('[data-cause="drift"]')).toBeNull();
    expect(grid.querySelectorAll("[data-cause]")).toHaveLength(ZERO_CAUSES.length - 1);
  });

  it("a cause button filters the list to it; pressed again it clears", async () => {
    const { onCause, rerender } = renderPanel();
    await userEvent.click(causeButton("tool_failed"));
    expect(onCause).toHaveBeenLastCalledWith("tool_failed");
    rerender({ active: "tool_failed" });
    expect(causeButton("tool_failed")).toHaveAttribute("aria-pressed", "true");
    expect(causeButton("identity")).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(causeButton("tool_failed"));
    expect(onCause).toHaveBeenLastCalledWith(null);
  });

  it("the chosen cause stays clickable in a view where it has no rollout", async () => {
    // Switched to a policy's zeros, a cause chosen in the recorded view can count none.
    const contract = whole.triage.contract;
    const empty = ZERO_CAUSES.find(
      (cause) => contract.counts[cause] === 0 && whole.triage.recorded.counts[cause] > 0,
    );
    if (empty === undefined) throw new Error("no cause is empty under contract only: the run changed");
    const { onCause, rerender } = renderPanel({ reward: "contract" });
    expectNamedOnly(causeNamed(empty));
    rerender({ active: empty });
    expect(causeButton(empty)).toBeEnabled();
    await userEvent.click(causeButton(empty));
    expect(onCause).toHaveBeenLastCalledWith(null);
  });

  it("switches between the recorded zeros and each policy's", async () => {
    const { onReward, rerender } = renderPanel();
    const views = within(screen.getByRole("group", { name: "Which reward the run view reads" }));
    expect(views.getByRole("button", { name: "recorded" })).toHaveAttribute("aria-pressed", "true");
    await userEvent.click(views.getByRole("button", { name: "recomputed · contract" }));
    expect(onReward).toHaveBeenLastCalledWith("contract");

    rerender({ reward: "contract" });
    expect(views.getByRole("button", { name: "recomputed · contract" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    const contract = whole.triage.contract;
    expect(screen.getByTestId("triage-headline")).toHaveTextContent(
      `${contract.zero} of ${run.intents.length} rollouts recompute to 0 under contract`,
    );
    // Drift is counted apart over the whole run, whichever reward decides what a zero is.
    expect(causeButton("drift").querySelector(`.${styles.causeCount}`)).toHaveTextContent(
      String(plannedZeros("drift")),
    );
  });

  it("names what a filtered breakdown covers", async () => {
    const filtered = await view("agent:hermes_agent");
    const covered = filtered.breakdown_rollouts;
    expect(covered).toBe(run.intents.filter((i) => i.agent === "hermes_agent").length);
    // The page's wording (app/_inspector breakdownScope); the panel shows it as given.
    const scope = `Breakdown of ${covered} of ${run.intents.length} rollouts (filter: agent:hermes_agent)`;
    renderPanel({
      triage: filtered.triage,
      counts: { rollouts: filtered.breakdown_rollouts, unreadable: filtered.counts.unreadable },
      scope,
    });
    expect(screen.getByTestId("triage-scope")).toHaveTextContent(scope);
    expect(screen.getByTestId("triage-headline")).toHaveTextContent(
      `of ${filtered.breakdown_rollouts} rollouts`,
    );
  });

  it("says how many zeros a provenance map rescues, keeps them in the list on a click, links the repair", async () => {
    // The run's Hermes rollouts without a map: their calls named no tool, a map makes them score.
    const rescued = run.intents.filter((i) => i.scenario === "aliases_no_map").map((i) => i.line);
    expect(rescued.length).toBeGreaterThan(0);
    expect(whole.triage.recorded.fixed_by_map).toEqual({
      lines: rescued,
      harnesses: ["hermes-legacy"],
      causes: ["tool_failed"],
    });
    const { onFixedByMap, rerender } = renderPanel();
    const note = screen.getByTestId("triage-fixed-by-map");
    expect(note).toHaveAttribute("data-count", String(rescued.length));
    expect(note).toHaveTextContent(
      `${rescued.length} of the ${whole.triage.recorded.zero} zeros (counted as "Call rejected or no such tool") score above 0 with a provenance map for their calls (harness what-if, hermes-legacy)`,
    );
    // Their cause stays tool_failed: bare names are the agent's own under the contract.
    expect(whole.triage.recorded.lines.tool_failed).toEqual(expect.arrayContaining(rescued));
    await userEvent.click(within(note).getByTestId("fixed-by-map-filter"));
    expect(onFixedByMap).toHaveBeenCalledWith(true);
    expect(within(note).getByTestId("fixed-by-map-repair")).toHaveAttribute(
      "href",
      "/compare?tab=repair&r=run.jsonl&harness=hermes-legacy",
    );
    rerender({ fixedByMapActive: true });
    expect(
      within(screen.getByTestId("triage-fixed-by-map")).getByTestId("fixed-by-map-filter"),
    ).toHaveTextContent("Show every rollout");
  });

  it("shows no scope line for the whole run", () => {
    renderPanel();
    expect(screen.queryByTestId("triage-scope")).toBeNull();
  });

  it("says which policy reproduces the recorded reward, and when legacy mostly does", () => {
    const line = (n: number, recorded: number, contract: number, legacy: number): TriagedLine => ({
      line: n,
      cause: null,
      recorded,
      contract,
      legacy,
      what_if_map: null,
      text_call: false,
    });
    const mostlyLegacy = summarizeTriage([
      line(1, 1, 0, 1),
      line(2, 1, 0, 1),
      line(3, 1, 1, 1),
      line(4, 0, 1, 1),
    ]);
    renderPanel({
      triage: { recorded: mostlyLegacy, contract: mostlyLegacy, legacy: mostlyLegacy },
      counts: { rollouts: 4, unreadable: 0 },
    });
    expect(screen.getByTestId("triage-reproduced")).toHaveTextContent(
      `Recorded reward reproduced by both policies 1, contract only 0, legacy only 2, neither 1. Mostly legacy: ${REPRODUCTION_TEXT.legacy}.`,
    );
  });

  it("an empty run: no zeros, nothing to choose", () => {
    const empty = summarizeTriage([]);
    renderPanel({
      triage: { recorded: empty, contract: empty, legacy: empty },
      counts: { rollouts: 0, unreadable: 0 },
    });
    expect(screen.getByTestId("triage-headline")).toHaveTextContent("No rollout to count");
    for (const cause of ZERO_CAUSES) expectNamedOnly(causeNamed(cause));
    expect(screen.getByTestId("triage-reproduced")).not.toHaveTextContent("Mostly legacy");
  });

  it("says how many rollouts the contract policy could not verify, and why, as the CLI and the report do", () => {
    renderPanel();
    const text = unverifiedText(whole.unverified, whole.triage.recorded.total);
    expect(text).not.toBeNull();
    expect(screen.getByTestId("triage-unverified")).toHaveTextContent(text ?? "");
    cleanup();
    renderPanel({ unverified: { contract: {}, legacy: {} } });
    expect(screen.queryByTestId("triage-unverified")).toBeNull();
  });

  it("where no port verifies the zeros, lists what Gym's verifier recorded; a value narrows the list", async () => {
    const recorded = summarizeRecordedFields([
      { recorded: 0, recorded_fields: [{ key: "failure_reason", value: '"tool_name_mismatch"' }] },
      {
        recorded: 0,
        recorded_fields: [
          { key: "failure_reason", value: '"tool_name_mismatch"' },
          { key: "score", value: "NaN" },
        ],
      },
      { recorded: 0, recorded_fields: [{ key: "score", value: "NaN" }] },
      { recorded: 1, recorded_fields: [{ key: "failure_reason", value: '"none"' }] },
    ]);
    const { onRecordedValue, rerender } = renderPanel({
      recorded: [{ group: null, summary: recorded }],
      recordedChoice: {
        clauses: new Set(["recorded:..0", "verifier:failure_reason=tool_name_mismatch"]),
        chosen: true,
      },
    });
    const section = screen.getByTestId("triage-recorded");
    expect(section).toHaveTextContent(recordedFieldsHeading(recorded) ?? "missing");
    const reason = within(section).getByRole("button", {
      name: 'failure_reason "tool_name_mismatch": 2 zeros',
    });
    expect(reason).toHaveAttribute("aria-pressed", "true");
    expect(section.querySelector("[data-field='failure_reason']")).toHaveTextContent('above 0: "none" ×1');
    await userEvent.click(reason);
    expect(onRecordedValue).toHaveBeenCalledWith("failure_reason", '"tool_name_mismatch"', undefined);
    // Each value is named with its field for a screen reader; Python's NaN is a value like another.
    expect(within(section).getByRole("button", { name: "score NaN: 2 zeros" })).toBeInTheDocument();
    // A policy's zeros are not these: the section is the recorded reward's.
    rerender({ recorded: [{ group: null, summary: recorded }], reward: "contract" });
    expect(screen.queryByTestId("triage-recorded")).toBeNull();
    // Several verifiers: each its own section, named, and a value comes with its verifier's group.
    cleanup();
    const groups = [
      { group: "image_tools", summary: recorded },
      { group: null, summary: recorded },
    ];
    const two = renderPanel({ recorded: groups });
    const sections = screen.getAllByTestId("triage-recorded");
    expect(sections.map((el) => el.querySelector("summary")?.textContent)).toEqual([
      `image_tools: ${recordedFieldsHeading(recorded)}`,
      `no server: ${recordedFieldsHeading(recorded)}`,
    ]);
    await userEvent.click(
      within(sections[1]!).getByRole("button", { name: 'failure_reason "tool_name_mismatch": 2 zeros' }),
    );
    expect(two.onRecordedValue).toHaveBeenCalledWith("failure_reason", '"tool_name_mismatch"', null);
    // Chosen under no server (is:no_server): pressed there, not under image_tools, whose value reads alike.
    cleanup();
    renderPanel({
      recorded: groups,
      recordedChoice: {
        clauses: new Set(["is:no_server", "recorded:..0", "verifier:failure_reason=tool_name_mismatch"]),
        chosen: true,
      },
    });
    const pressed = screen
      .getAllByTestId("triage-recorded")
      .map((el) => el.querySelectorAll('button[aria-pressed="true"]').length);
    expect(pressed).toEqual([0, 1]);
  });
});
