/**
 * The summary band's totals follow the one filter as its tiles do: a search that keeps 1 rollout of 5 once
 * showed "5 rollouts" beside that one rollout's tool calls (Gym's xlam_fc, a new-user pass).
 */
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { asRollout } from "@/lib/schemas/test-helpers";
import { analyzeRollout } from "@/worker/core";
import { statusCounts } from "./list";
import { SummaryBand } from "./SummaryBand";

/** Line n makes n calls. */
const file = [1, 2, 3, 4, 5].map((line) =>
  analyzeRollout(
    line,
    asRollout({
      reward: 1,
      response: {
        output: Array.from({ length: line }, (_, i) => ({
          type: "function_call",
          call_id: `c${line}_${i}`,
          name: "email_send_email",
          arguments: "{}",
        })),
      },
    }),
    { input: undefined, override: null, sample: null, harness: null },
  ),
);

function band(rows: typeof file, filter: string) {
  render(
    <SummaryBand
      counts={statusCounts(rows)}
      entries={rows}
      total={file.length}
      errorLines={0}
      filter={filter}
      onFilter={() => {}}
      reward="recorded"
      pendingLabel="rewards pending"
    />,
  );
}

describe("SummaryBand's totals", () => {
  it("are the file's without a filter", () => {
    band(file, "");
    expect(screen.getByTestId("rollout-count")).toHaveTextContent("5");
    expect(screen.getByTestId("rollout-count").nextElementSibling).toHaveTextContent(/^rollouts$/);
    expect(screen.getByText("tool calls").previousElementSibling).toHaveTextContent("15");
  });

  it("are the kept rows' under a filter, out of the file's rollouts, as the tiles are", () => {
    band(file.slice(3, 4), "text:list_titles");
    expect(screen.getByTestId("tiles-scope")).toHaveTextContent("1 of 5 rollouts (filter: text:list_titles)");
    expect(screen.getByTestId("rollout-count")).toHaveTextContent("1");
    expect(screen.getByTestId("rollout-count").nextElementSibling).toHaveTextContent("of 5 rollouts");
    expect(screen.getByText("tool calls").previousElementSibling).toHaveTextContent("4");
  });
});
