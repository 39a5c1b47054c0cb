import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { WhatIfView } from "./protocol";
import { WhatIfTable } from "./WhatIfTable";

afterEach(cleanup);

const view: WhatIfView = {
  file: "run.jsonl",
  line: 3,
  server: "",
  server_reason: "",
  input: null,
  recorded: 1,
  http: { reward: null, error: null, names: [] },
  rows: [],
  reemitted_calls: [],
  error: "it makes no tool call, so no harness's aliases can change its reward.",
  error_kind: "no_calls",
};

describe("WhatIfTable", () => {
  it("says plainly that there is nothing to try (no call, no port here), and a failure as one", () => {
    render(<WhatIfTable view={view} />);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByTestId("whatif-nothing")).toHaveTextContent(
      "Nothing to try for line 3: it makes no tool call, so no harness's aliases can change its reward.",
    );
    cleanup();
    render(<WhatIfTable view={{ ...view, error: "no verifying server: x", error_kind: "no_server" }} />);
    expect(screen.getByRole("alert")).toHaveTextContent(
      "What-if could not run for line 3: no verifying server: x",
    );
  });

  it("says an error every variant shares once, above the table, not on each row", () => {
    const http = "This line carries no ground_truth.";
    // Every variant's rows with one error, beside HTTP's.
    const renderRows = (error: string) => {
      const row = (harness: "claude-code" | "hermes", with_provenance: boolean) => ({
        harness,
        label: harness,
        with_provenance,
        reward: null,
        error,
        equals_http: false,
        emitted: ["mcp__s__t"],
        verifier_names: ["t"],
        statuses: [],
      });
      const rows = [row("claude-code", true), row("claude-code", false), row("hermes", true)];
      const http_ = { reward: null, error: http, names: ["t"] };
      render(<WhatIfTable view={{ ...view, error: null, error_kind: null, http: http_, rows }} />);
    };
    const error =
      "This line carries no ground_truth, which the request model requires. Not paired: no index.";
    renderRows(error);
    expect(screen.getByTestId("whatif-shared-error")).toHaveTextContent(`Every variant: ${error}`);
    expect(screen.getAllByText("unverified, as every variant (above)")).toHaveLength(3);
    expect(screen.getByTestId("whatif-table")).not.toHaveTextContent("Not paired: no index.");
    cleanup();
    // HTTP's own error followed by the pairing's reason (said on the task row's line): as HTTP, nothing repeated.
    renderRows(`${http} Not paired: no index.`);
    expect(screen.queryByTestId("whatif-shared-error")).toBeNull();
    expect(screen.getAllByText("unverified, as HTTP (above)")).toHaveLength(3);
  });
});
