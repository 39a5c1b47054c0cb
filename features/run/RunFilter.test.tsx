/** The harness per agent: a select each, folded behind one line past a few agents (the golden run has 17). */
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentInference } from "@/lib/harness";
import { exportCommand, HARNESS_AGENTS_OPEN_MAX, HarnessAgents } from "./RunFilter";

afterEach(cleanup);

const agents = (n: number) => Array.from({ length: n }, (_, i) => `agent_${i}`);
const hermes = (agent: string): AgentInference => ({
  agent,
  inference: { basis: "inferred", harnesses: ["hermes"], aliased: 4, explained: 4 },
});

describe("HarnessAgents", () => {
  it("lists a few agents unfolded, each with its select and the harness inferred for it", async () => {
    const onHarness = vi.fn();
    const few = agents(HARNESS_AGENTS_OPEN_MAX);
    render(
      <HarnessAgents
        agents={few}
        harness={{ all: null, agents: {} }}
        inferred={[hermes("agent_1")]}
        onHarness={onHarness}
      />,
    );
    expect(screen.queryByTestId("harness-agents-folded")).toBeNull();
    expect(screen.getAllByRole("combobox")).toHaveLength(few.length);
    await userEvent.click(screen.getByRole("button", { name: "use hermes" }));
    expect(onHarness).toHaveBeenLastCalledWith({ all: null, agents: { agent_1: "hermes" } });
  });

  it("folds many agents behind a line that counts them, their own choices and the offers not applied", async () => {
    const many = agents(17);
    render(
      <HarnessAgents
        agents={many}
        harness={{ all: null, agents: {} }}
        inferred={[hermes("agent_2"), hermes("agent_5")]}
        onHarness={vi.fn()}
      />,
    );
    const folded = screen.getByTestId("harness-agents-folded");
    expect(folded).not.toHaveAttribute("open");
    expect(within(folded).getByText(/^Harness per agent/)).toHaveTextContent(
      "Harness per agent: 17 agents, 2 with an inferred harness not applied",
    );
    await userEvent.click(within(folded).getByText(/^Harness per agent/));
    expect(folded).toHaveAttribute("open");
    expect(within(folded).getAllByRole("combobox")).toHaveLength(17);
  });

  it("folds once the agents streaming in pass a few, whatever showed first", () => {
    const props = { harness: { all: null, agents: {} }, inferred: [], onHarness: vi.fn() };
    const view = render(<HarnessAgents agents={agents(2)} {...props} />);
    expect(screen.queryByTestId("harness-agents-folded")).toBeNull();
    view.rerender(<HarnessAgents agents={agents(17)} {...props} />);
    expect(screen.getByTestId("harness-agents-folded")).not.toHaveAttribute("open");
  });

  it("starts unfolded when an agent has a harness of its own: the choice stays in sight", () => {
    render(
      <HarnessAgents
        agents={agents(17)}
        harness={{ all: null, agents: { agent_3: "claude-code" } }}
        inferred={[]}
        onHarness={vi.fn()}
      />,
    );
    expect(screen.getByTestId("harness-agents-folded")).toHaveAttribute("open");
    expect(screen.getByText(/^Harness per agent/)).toHaveTextContent(
      "17 agents, 1 with a harness of their own",
    );
  });
});

describe("the export's CLI command", () => {
  const base = {
    fileName: "workplace-noecho.jsonl",
    folder: null,
    inputsName: null,
    server: null,
    harness: { all: null, agents: {} },
    filter: "",
  };

  it("names what the export was computed with: the paired inputs file, the server and harness chosen, the filter", () => {
    expect(exportCommand(base)).toBe("npm run --silent cli -- triage 'workplace-noecho.jsonl' --format csv");
    expect(
      exportCommand({
        ...base,
        inputsName: "workplace_materialized_inputs.jsonl",
        server: "workplace_assistant",
        harness: { all: "hermes-legacy", agents: { "it's": "claude-code" } },
        filter: "recorded:..0 ",
      }),
    ).toBe(
      "npm run --silent cli -- triage 'workplace-noecho.jsonl' --inputs 'workplace_materialized_inputs.jsonl' --server 'workplace_assistant' --harness 'hermes-legacy,it'\\''s=claude-code' --format csv --filter 'recorded:..0'",
    );
  });

  it("reads a folder's file as the folder, whose task rows are its own: no --inputs, no file's own choices", () => {
    const folder = {
      name: "my run",
      path: null,
      picked: false,
      runs: 2,
      roles: [{ path: "data/x.jsonl", role: "inputs" }],
    };
    // A server or harness chosen for the shown file is not the folder's: the folder's triage leaves them out.
    const chosen = { server: "workplace_assistant", harness: { all: "hermes-legacy" as const, agents: {} } };
    expect(exportCommand({ ...base, ...chosen, folder, inputsName: "data/example.jsonl" })).toBe(
      "npm run --silent cli -- triage 'my run' --role 'data/x.jsonl=inputs' --format csv",
    );
    // Files picked together: a folder holding only them, which the page cannot name.
    expect(
      exportCommand({ ...base, folder: { ...folder, name: "2 files picked together", picked: true } }),
    ).toBe("npm run --silent cli -- triage DIR --role 'data/x.jsonl=inputs' --format csv");
    // A served folder (cli view) by its path on the machine serving it: the command runs there as it is.
    expect(exportCommand({ ...base, folder: { ...folder, path: "/data/runs/my run" } })).toBe(
      "npm run --silent cli -- triage '/data/runs/my run' --role 'data/x.jsonl=inputs' --format csv",
    );
  });
});
