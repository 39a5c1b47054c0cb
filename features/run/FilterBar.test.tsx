/**
 * The filter bar edits one clause of the one filter per control: a chip toggles its flag, a select sets its
 * agent or server, the search box its text (once typing settles), "clear" empties it. Expected filters are
 * written with lib/run's own clause functions, so the test follows the filter syntax.
 */
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DRAFT_COMMIT_MS } from "@/hooks/use-draft";
import { type FilterClause, formatFilter } from "@/lib/run/filter";
import { FilterBar } from "./FilterBar";
import { FILTER_FLAGS, flagClause } from "./list";

type Props = Parameters<typeof FilterBar>[0];

function renderBar(filter: string, props: Partial<Props> = {}) {
  const onFilter = vi.fn<(filter: string) => void>();
  const all: Props = {
    filter,
    onFilter,
    reward: "recorded",
    agents: ["alpha", "beta"],
    servers: ["workplace_assistant"],
    shown: 3,
    total: 10,
    searching: false,
    ...props,
  };
  const view = render(<FilterBar {...all} />);
  return { onFilter, rerender: (next: Partial<Props>) => view.rerender(<FilterBar {...all} {...next} />) };
}

const agent = (value: string): FilterClause => ({ kind: "agent", value });
const server = (value: string): FilterClause => ({ kind: "server", value });
const text = (value: string): FilterClause => ({ kind: "text", value });

const optionLabels = (name: string) =>
  within(screen.getByRole("combobox", { name }))
    .getAllByRole("option")
    .map((o) => o.textContent);

describe("FilterBar", () => {
  it("a flag chip shows whether its clause is in the filter, and a click toggles that clause", async () => {
    const { onFilter } = renderBar(formatFilter([flagClause("changed")]));
    const changed = screen.getByRole("button", { name: "reward changed" });
    const zero = screen.getByRole("button", { name: "recorded ≤\u00a00" });
    expect(changed).toHaveAttribute("aria-pressed", "true");
    expect(zero).toHaveAttribute("aria-pressed", "false");

    await userEvent.click(changed);
    expect(onFilter).toHaveBeenLastCalledWith("");
    await userEvent.click(zero);
    expect(onFilter).toHaveBeenLastCalledWith(formatFilter([flagClause("changed"), flagClause("zero")]));
  });

  it("the zero chip counts zeros in the run view's reward setting: named so, and toggling that reward's clause", async () => {
    const { onFilter } = renderBar("recorded:..0", { reward: "contract" });
    const zero = screen.getByRole("button", { name: "contract ≤\u00a00" });
    // A recorded zero clause is not the contract chip's.
    expect(zero).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(zero);
    expect(onFilter).toHaveBeenLastCalledWith("recorded:..0 contract:..0");
  });

  it("has one chip per flag, each pressed exactly when its clause is in the filter", () => {
    renderBar(formatFilter([flagClause("external"), flagClause("unverified"), agent("alpha")]));
    const pressed = FILTER_FLAGS.filter(
      (flag) => document.querySelector(`[data-filter="${flag}"]`)?.getAttribute("aria-pressed") === "true",
    );
    expect(pressed).toEqual(["external", "unverified"]);
    expect(screen.getAllByRole("button", { pressed: false })).toHaveLength(FILTER_FLAGS.length - 2);
  });

  it("the agent select sets the agent clause, keeping the others; 'all agents' removes it", async () => {
    const { onFilter } = renderBar(formatFilter([flagClause("zero"), agent("alpha")]));
    const select = screen.getByRole("combobox", { name: "Agent" });
    expect(select).toHaveValue("alpha");
    await userEvent.selectOptions(select, "beta");
    expect(onFilter).toHaveBeenLastCalledWith(formatFilter([flagClause("zero"), agent("beta")]));
    await userEvent.selectOptions(select, "");
    expect(onFilter).toHaveBeenLastCalledWith(formatFilter([flagClause("zero")]));
  });

  it("an agent or server in the filter that the file lacks is still shown as chosen", () => {
    renderBar(formatFilter([agent("gone"), server("elsewhere")]));
    expect(screen.getByRole("combobox", { name: "Agent" })).toHaveValue("gone");
    expect(optionLabels("Agent")).toEqual(["all agents", "gone", "alpha", "beta"]);
    expect(screen.getByRole("combobox", { name: "Server" })).toHaveValue("elsewhere");
  });

  it("the server select sets the server clause", async () => {
    const { onFilter } = renderBar("");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Server" }), "workplace_assistant");
    expect(onFilter).toHaveBeenLastCalledWith(formatFilter([server("workplace_assistant")]));
  });

  it("server names that look alike are told apart in their labels", () => {
    const servers = ["workplace_assistant", "workplace_assistant ", "workplace_\u0251ssistant"];
    renderBar("", { servers });
    expect(optionLabels("Server")).toEqual([
      "all servers",
      "workplace_assistant",
      "workplace_assistant⟨U+0020⟩ (odd spaces)",
      "workplace_⟨U+0251⟩ssistant (confusable)",
    ]);
  });

  it("agent names that look alike are told apart in their labels, as servers are", () => {
    // A Cyrillic о, a Latin script ɡ, a trailing space: each reads as the plain name beside it.
    const agents = ["hermes_agent", "herm\u0435s_agent", "hermes_a\u0261ent", "hermes_agent "];
    renderBar(formatFilter([agent("claude_agent")]), { agents });
    expect(optionLabels("Agent")).toEqual([
      "all agents",
      "claude_agent",
      "hermes_agent",
      "herm⟨U+0435⟩s_agent (mixed scripts, confusable)",
      "hermes_a⟨U+0261⟩ent (confusable)",
      "hermes_agent⟨U+0020⟩ (odd spaces)",
    ]);
    // The option's value is the name itself: choosing it filters on the real name.
    expect(within(screen.getByRole("combobox", { name: "Agent" })).getAllByRole("option")[3]).toHaveValue(
      "herm\u0435s_agent",
    );
  });

  describe("the search box", () => {
    // Fake time: the draft's commit waits DRAFT_COMMIT_MS after the last keystroke, however slow the machine.
    // Keystrokes are change events (user-event's async steps wait on real timers under RTL).
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    const type = (box: HTMLElement, word: string) => {
      for (let end = 1; end <= word.length; end++)
        fireEvent.change(box, { target: { value: word.slice(0, end) } });
    };

    it("writes one text clause once typing settles", () => {
      const { onFilter } = renderBar(formatFilter([flagClause("zero")]));
      const box = screen.getByRole("searchbox", { name: "Search rollouts" });
      type(box, "refund");
      // The field shows every keystroke at once; the filter gets the whole word, once.
      expect(box).toHaveValue("refund");
      expect(onFilter).not.toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(DRAFT_COMMIT_MS));
      expect(onFilter.mock.calls).toEqual([[formatFilter([flagClause("zero"), text("refund")])]]);
    });

    it("emptied, removes the text clause", () => {
      const { onFilter } = renderBar(formatFilter([text("refund"), agent("alpha")]));
      const box = screen.getByRole("searchbox", { name: "Search rollouts" });
      expect(box).toHaveValue("refund");
      fireEvent.change(box, { target: { value: "" } });
      act(() => vi.advanceTimersByTime(DRAFT_COMMIT_MS));
      expect(onFilter.mock.calls).toEqual([[formatFilter([agent("alpha")])]]);
    });
  });

  it("filter syntax searched as text is offered as the filter, and only then", () => {
    const { onFilter } = renderBar(formatFilter([agent("alpha"), text("recorded:0..0")]));
    fireEvent.click(
      within(screen.getByTestId("search-as-filter")).getByRole("button", { name: "filter by it" }),
    );
    expect(onFilter.mock.calls).toEqual([["agent:alpha recorded:0"]]);
    cleanup();
    // Plain text with a colon, a phrase with one clause in it, or text only, is a search.
    renderBar(formatFilter([text("error: refund")]));
    expect(screen.queryByTestId("search-as-filter")).toBeNull();
    cleanup();
    renderBar(formatFilter([text("customer id recorded:0")]));
    expect(screen.queryByTestId("search-as-filter")).toBeNull();
    cleanup();
    // An agent typed replaces the agent chosen (two would keep nothing).
    const replaced = renderBar(formatFilter([agent("alpha"), text("agent:beta")]));
    fireEvent.click(screen.getByRole("button", { name: "filter by it" }));
    expect(replaced.onFilter.mock.calls).toEqual([["agent:beta"]]);
    cleanup();
    renderBar(formatFilter([text("refund")]));
    expect(screen.queryByTestId("search-as-filter")).toBeNull();
  });

  it("a filter changed elsewhere (clear, back) replaces what the search box shows", () => {
    const { rerender } = renderBar(formatFilter([text("refund")]));
    const box = screen.getByRole("searchbox", { name: "Search rollouts" });
    act(() => rerender({ filter: "" }));
    expect(box).toHaveValue("");
  });

  it("shows how many rollouts match, or that it is searching", () => {
    const { rerender } = renderBar("", { shown: 3, total: 10 });
    expect(screen.getByTestId("shown-count")).toHaveTextContent("3 / 10");
    rerender({ searching: true });
    expect(screen.getByTestId("shown-count")).toHaveTextContent("searching…");
  });

  it("'clear' is offered only with a filter, and empties it", async () => {
    const { onFilter, rerender } = renderBar("");
    expect(screen.queryByRole("button", { name: "clear" })).toBeNull();
    rerender({ filter: formatFilter([agent("alpha"), flagClause("zero")]) });
    await userEvent.click(screen.getByRole("button", { name: "clear" }));
    expect(onFilter).toHaveBeenLastCalledWith("");
  });

  it("shows agent names from the file as text, never as markup", () => {
    const payload = '<img src=x onerror="window.__xss=1">';
    const { onFilter } = renderBar(formatFilter([agent(payload)]), { agents: [payload] });
    expect(document.querySelector("img")).toBeNull();
    expect(screen.getByRole("combobox", { name: "Agent" })).toHaveValue(payload);
    expect(optionLabels("Agent")).toEqual(["all agents", payload]);
    expect(onFilter).not.toHaveBeenCalled();
  });
});
