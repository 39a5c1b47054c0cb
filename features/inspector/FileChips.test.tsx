/** The opened files in the header: a chip each, or one select once a folder brings many (Gym's whole tree). */
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileChips, MAX_FILE_CHIPS } from "./FileChips";
import { datasetSummary } from "./test-helpers";

afterEach(cleanup);

const files = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    datasetSummary({
      id: `d${i}`,
      name: `server_${i}/data/example_rollouts.jsonl`,
      rows: 5,
      kind: "rollouts",
    }),
  );
const inputs = [datasetSummary({ id: "in", name: "data/example.jsonl", rows: 5, kind: "inputs" })];

describe("FileChips", () => {
  it("shows a chip per rollouts file, and the inputs files beside them", async () => {
    const onChoose = vi.fn();
    const rollouts = files(MAX_FILE_CHIPS - inputs.length);
    render(
      <FileChips rollouts={rollouts} inputs={inputs} shown="d0" names={new Map()} onChoose={onChoose} />,
    );
    expect(screen.getAllByRole("button")).toHaveLength(MAX_FILE_CHIPS - inputs.length);
    expect(screen.getByText("inputs · 5 rows")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: /server_3\// }));
    expect(onChoose).toHaveBeenLastCalledWith("d3");
  });

  it("says on its chip that a served file changed on disk, is gone, or that its server is not answering", () => {
    const follow = {
      following: false,
      waiting_bytes: 0,
      gone: false,
      unreachable_since: null,
      refused: false,
      not_followed: null,
    };
    const rollouts = [
      datasetSummary({
        id: "a",
        name: "a.jsonl",
        rows: 5,
        kind: "rollouts",
        follow: { ...follow, problem: "The file shrank" },
      }),
      datasetSummary({
        id: "b",
        name: "b.jsonl",
        rows: 2,
        kind: "rollouts",
        follow: { ...follow, following: true, problem: null, unreachable_since: 1 },
      }),
      datasetSummary({ id: "c", name: "c.jsonl", rows: 1, kind: "rollouts" }),
      datasetSummary({
        id: "d",
        name: "d.jsonl",
        rows: 3,
        kind: "rollouts",
        follow: { ...follow, problem: "The file is no longer in the served folder", gone: true },
      }),
    ];
    const inputs = [
      datasetSummary({
        id: "i",
        name: "data/example.jsonl",
        rows: 5,
        kind: "inputs",
        follow: { ...follow, problem: "Task rows were added" },
      }),
    ];
    render(<FileChips rollouts={rollouts} inputs={inputs} shown="a" names={new Map()} onChoose={() => {}} />);
    const counts = screen.getAllByTestId("chip-counts").map((el) => el.textContent);
    expect(counts).toEqual([
      " 5 rollouts · changed on disk, rows as first read",
      " 2 rollouts · server not answering",
      " 1 rollout",
      " 3 rollouts · gone from the served folder, rows as first read",
      "inputs · 5 rows · changed on disk, rows as first read",
    ]);
  });

  it("lists many rollouts files in one select, every one of them, the one on screen chosen", async () => {
    const onChoose = vi.fn();
    const rollouts = files(180);
    render(
      <FileChips rollouts={rollouts} inputs={inputs} shown="d7" names={new Map()} onChoose={onChoose} />,
    );
    expect(screen.queryAllByRole("button")).toHaveLength(0);
    const select = within(screen.getByTestId("file-select")).getByRole("combobox");
    expect(within(select).getAllByRole("option")).toHaveLength(180);
    expect(select).toHaveValue("d7");
    expect(screen.getByTestId("file-select")).toHaveTextContent("180 rollouts files, 1 inputs file:");
    expect(
      within(select).getByRole("option", { name: /^server_9\/data\/example_rollouts\.jsonl · 5 rollouts$/ }),
    ).toBeInTheDocument();
    await userEvent.selectOptions(select, "d42");
    expect(onChoose).toHaveBeenLastCalledWith("d42");
  });

  it("counts the inputs files' chips too: a folder of 12 runs, each with its task rows, gets the select", () => {
    // Gym's environments/ tree: 12 rollouts files and 12 task-row files took the top 600 px as chips.
    const rollouts = files(12);
    const taskRows = files(12).map((file, i) =>
      datasetSummary({ id: `in${i}`, name: file.name.replace("_rollouts", ""), rows: 5, kind: "inputs" }),
    );
    render(
      <FileChips rollouts={rollouts} inputs={taskRows} shown="d3" names={new Map()} onChoose={vi.fn()} />,
    );
    expect(screen.queryAllByRole("button")).toHaveLength(0);
    const select = within(screen.getByTestId("file-select")).getByRole("combobox");
    expect(within(select).getAllByRole("option")).toHaveLength(12);
    expect(select).toHaveValue("d3");
    expect(screen.getByTestId("file-select")).toHaveTextContent("12 rollouts files, 12 inputs files:");
  });
});
