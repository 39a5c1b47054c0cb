import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { formatFilter } from "@/lib/run/filter";
import { FilterBar } from "./FilterBar";
import { flagClause } from "./list";

function renderBar(filter: string) {
  const onFilter = vi.fn<(filter: string) => void>();
  render(
    <FilterBar
      filter={filter}
      onFilter={onFilter}
      agents={["alpha", "beta"]}
      servers={["workplace_assistant"]}
      shown={3}
      total={10}
      searching={false}
    />,
  );
  return onFilter;
}

describe("FilterBar", () => {
  it("a flag chip shows whether its clause is in the filter, and a click toggles that clause", async () => {
    const onFilter = renderBar(formatFilter([flagClause("changed")]));
    const changed = screen.getByRole("button", { name: "reward changed" });
    const zero = screen.getByRole("button", { name: "recorded 0" });
    expect(changed).toHaveAttribute("aria-pressed", "true");
    expect(zero).toHaveAttribute("aria-pressed", "false");

    await userEvent.click(changed);
    expect(onFilter).toHaveBeenLastCalledWith("");
    await userEvent.click(zero);
    expect(onFilter).toHaveBeenLastCalledWith(formatFilter([flagClause("changed"), flagClause("zero")]));
  });
});
