/**
 * The verification panel: both policies' recorded and recomputed rewards, why (once when they agree, per
 * policy when not), the server choice, the way to /live when no verifier here runs the server, and model
 * text (a server or tool name) shown as text. The views are the worker's own (detailVerification) on
 * bundled samples and small rollouts.
 */
import { readFileSync } from "node:fs";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { SERVER_SOURCE_LABEL, type VerificationView } from "@/hooks/types";
import { readLine } from "@/lib/folder";
import { rolloutWith } from "@/lib/identity/test-helpers";
import { asRollout } from "@/lib/schemas/test-helpers";
import { detailVerification, type RowContext, verifiedDetail } from "@/worker/core";
import { SEE_ABOVE, VerificationPanel } from "./VerificationPanel";
import styles from "./VerificationPanel.module.css";
import { WhyZero } from "./WhyZero";

const NO_CONTEXT: RowContext = { input: undefined, override: null, sample: null, harness: null };

/** Line `line` (1-based) of a bundled sample, as JSON. */
function sampleLine(file: string, line: number): Record<string, unknown> {
  return JSON.parse(readFileSync(`public/samples/${file}`, "utf8").split("\n")[line - 1] ?? "");
}

/** The detail pane's verification of line `line` of a bundled sample. */
function sampleVerification(file: string, line: number, context = NO_CONTEXT): VerificationView {
  return detailVerification(asRollout(sampleLine(file, line)), context);
}

/** Edge cases: line 2 fails under both (4 sentences), line 3 recomputes to 0 under contract only (recorded 1). */
const EDGE = "workplace-edge-cases.jsonl";
const ENVIRONMENT = SERVER_SOURCE_LABEL.environment_name;

function renderPanel(
  view: VerificationView | null,
  overrides: Partial<Parameters<typeof VerificationPanel>[0]> = {},
) {
  const onServer = vi.fn<(server: string | null) => void>();
  render(
    <VerificationPanel
      view={view}
      loading={false}
      servers={["workplace_assistant", "example_mcp_weather"]}
      server={null}
      defaultServer="workplace_assistant"
      defaultSource="environment_name"
      onServer={onServer}
      harness="claude-code"
      harnessScope="chosen for agent-a"
      liveHref="/live?file=f&line=3"
      {...overrides}
    />,
  );
  return onServer;
}

/** The policy card of `policy`: its recorded and recomputed values as shown. */
function card(policy: "contract" | "legacy") {
  const column = document.querySelector<HTMLElement>(`[data-policy-column="${policy}"]`);
  if (column === null) throw new Error(`no ${policy} card`);
  const values = [...column.querySelectorAll(`.${styles.rewardBox}`)].map((box) => ({
    label: box.querySelector(`.${styles.rewardLabel}`)?.textContent,
    value: box.querySelector(`.${styles.rewardValue}`)?.textContent,
    changed: box.classList.contains(String(styles.rewardBoxChanged)),
  }));
  return { column, values };
}

describe("VerificationPanel", () => {
  it("shows each policy's recorded and recomputed reward, marking a recomputation that differs", () => {
    renderPanel(sampleVerification(EDGE, 3));
    expect(card("contract").values).toEqual([
      { label: "recorded", value: "1.0", changed: false },
      { label: "recomputed", value: "0.0", changed: true },
    ]);
    expect(card("legacy").values).toEqual([
      { label: "recorded", value: "1.0", changed: false },
      { label: "recomputed", value: "1.0", changed: false },
    ]);
    expect(
      screen.getByText(/Verifying server workplace_assistant, from the line's environment_name\./),
    ).toBeVisible();
  });

  it("explains once when both policies agree, and per policy when they do not", () => {
    renderPanel(sampleVerification(EDGE, 2));
    expect(screen.getByText("Why — both policies")).toBeInTheDocument();
    expect(screen.queryByText("Why — contract")).toBeNull();
    cleanup();

    renderPanel(sampleVerification(EDGE, 3));
    expect(screen.queryByText("Why — both policies")).toBeNull();
    expect(screen.getByText("Why — contract")).toBeInTheDocument();
    expect(screen.getByText("Why — legacy")).toBeInTheDocument();
  });

  it("lists the first two sentences, and all of them after 'show all'", async () => {
    const view = sampleVerification(EDGE, 2);
    expect(view.contract.explanation_total).toBe(4);
    renderPanel(view);
    const why = screen.getByText("Why — both policies").parentElement!;
    const sentences = () =>
      [...why.querySelectorAll(`.${styles.explanation} > li`)].map((li) => li.textContent);
    expect(sentences()).toEqual(view.contract.explanation.slice(0, 2));

    await userEvent.click(within(why).getByRole("button", { name: "show all 4 sentences" }));
    expect(sentences()).toEqual(view.contract.explanation);
    await userEvent.click(within(why).getByRole("button", { name: "show fewer" }));
    expect(sentences()).toEqual(view.contract.explanation.slice(0, 2));
  });

  it("says how many sentences are left out when the page got only the first ones", async () => {
    // A real task whose 60 calls name no tool of the server: a sentence each, more than a page carries.
    const calls = Array.from({ length: 60 }, (_, i) => ({ name: `not_a_tool_${i}`, call_id: `c${i}` }));
    const rollout = asRollout({ ...sampleLine(EDGE, 1), response: rolloutWith(calls).response });
    const view = detailVerification(rollout, NO_CONTEXT);
    const hidden = view.contract.explanation_total - view.contract.explanation.length;
    expect(hidden).toBeGreaterThan(0);
    renderPanel(view);
    const toggle = screen.getAllByRole("button", { name: /^show all/ })[0]!;
    expect(screen.queryByTestId("explanation-more")).toBeNull();
    await userEvent.click(toggle);
    expect(screen.getAllByTestId("explanation-more")[0]).toHaveTextContent(`and ${hidden} more sentences`);
  });

  it("says once why neither policy has a reward: the why-zero box and the cards stay short", () => {
    // Gym's code_gen rollout, routed to code_gen by its config: this project has no port of its verifier.
    const line = readFileSync(
      "fixtures/gym-examples/resources_servers/code_gen/data/example_rollouts.jsonl",
      "utf8",
    ).split("\n")[0];
    const detail = verifiedDetail(asRollout(JSON.parse(line ?? "")), { ...NO_CONTEXT, override: "code_gen" });
    const view = detail.view;
    const reason = view.contract.unverified?.message ?? "";
    expect(reason).toMatch(/^This project has no port of code_gen's verifier: verify through/);
    render(<WhyZero triage={view.triage} onCall={() => {}} />);
    renderPanel(view, { defaultServer: "code_gen", server: "code_gen" });
    expect(screen.getByTestId("why-zero")).toHaveAttribute("data-why-cause", "no_verifier_port");
    expect(screen.getByTestId("why-sentence")).toHaveTextContent(
      "This project has no port of code_gen's verifier: the recorded 0 is shown as Gym wrote it and cannot be re-checked here.",
    );
    // The reason, with what to do about it, once in the whole pane; every other place points at it.
    expect(screen.getAllByText(reason)).toHaveLength(1);
    expect(screen.getByTestId("unverified-reason")).toHaveTextContent(reason);
    expect(screen.getByTestId("unverified-reason")).toHaveAttribute("data-unverified-code", "no_verifier");
    // No port here is no fault of the line: said in the muted colour, not the error red.
    expect(screen.getByTestId("unverified-reason")).toHaveClass("muted");
    expect(screen.getByTestId("unverified-reason")).not.toHaveClass(String(styles.verifyError));
    for (const policy of ["contract", "legacy"] as const)
      expect(within(card(policy).column).getByText(SEE_ABOVE)).toHaveClass(String(styles.verifyError));
    expect(screen.getByTestId("why-see-above")).toHaveTextContent(SEE_ABOVE);
  });

  it("says why an unpaired line was not paired once, inside the reason it has no reward", () => {
    // Gym's workplace_assistant example rollout: no task fields of its own, and no open task row pairs it.
    const line = readFileSync(
      "fixtures/gym-examples/resources_servers/workplace_assistant/data/example_rollouts.jsonl",
      "utf8",
    ).split("\n")[0];
    const pairing = {
      paired_by: "none",
      ambiguous: 0,
      reason:
        "Not paired: the line has no (_ng_task_index, _ng_rollout_index), and none of the 5 open input rows has its responses_create_params.input.",
    } as const;
    const view = detailVerification(asRollout(JSON.parse(line ?? "")), {
      ...NO_CONTEXT,
      override: "workplace_assistant",
      pairing,
    });
    expect(view.contract.unverified?.code).toBe("missing_field");
    expect(view.contract.unverified?.message).toContain(pairing.reason);
    renderPanel(view);
    expect(screen.getByTestId("unverified-reason")).toHaveTextContent(pairing.reason);
    expect(screen.queryByTestId("pairing-reason")).toBeNull();
    expect(
      screen.getAllByText(
        (_, element) =>
          element?.textContent?.includes(pairing.reason) === true && element.children.length === 0,
      ),
    ).toHaveLength(1);
  });

  it("says once why no server verifies a lone file's line, and that the folder Gym wrote would say", () => {
    const line = readFileSync(
      "fixtures/gym-examples/resources_servers/aviary/data/example_rollouts.jsonl",
      "utf8",
    ).split("\n")[0];
    // Read as every front end reads a line (lib/folder readLine: Gym's output items as it writes them).
    const read = readLine(JSON.parse(line ?? ""));
    if (!read.ok) throw new Error(read.message);
    const view = detailVerification(read.rollout, NO_CONTEXT);
    expect(view.contract.unverified?.code).toBe("no_server");
    renderPanel(view, { defaultServer: null, defaultSource: "none" });
    const reason = screen.getByTestId("unverified-reason");
    expect(reason).toHaveTextContent(view.contract.server_reason);
    expect(reason).toHaveTextContent("open the folder Gym wrote for this run");
    expect(document.querySelector("[data-server-source]")?.textContent).not.toContain(
      view.contract.server_reason,
    );
  });

  it("shows why a policy has no reward and what Gym would reject", () => {
    const view = sampleVerification(EDGE, 5);
    expect(view.contract.unverified?.code).toBe("gym_refuses");
    renderPanel(view);
    const contract = card("contract");
    expect(contract.values[1]).toEqual({ label: "recomputed", value: "—", changed: false });
    expect(within(contract.column).getByText(view.contract.error!)).toHaveClass(String(styles.verifyError));
    const reject = within(contract.column).getByText("Gym would reject this verify request:").parentElement!;
    expect(
      within(reject)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(view.contract.gym_would_reject);
    // Legacy reads the same line and scores it.
    expect(card("legacy").values[1]).toMatchObject({ value: "1.0" });
    expect(within(card("legacy").column).queryByText(/Gym would reject/)).toBeNull();
  });

  it("offers /live with this line when no verifier here runs the chosen server", () => {
    renderPanel(sampleVerification(EDGE, 1, { ...NO_CONTEXT, override: "my_server" }), {
      server: "my_server",
    });
    const link = screen.getByRole("link", { name: "Verify through my_server's own /verify on /live" });
    expect(link).toHaveAttribute("href", "/live?file=f&line=3");
  });

  it("offers no /live link when a verifier here ran", () => {
    renderPanel(sampleVerification(EDGE, 1));
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("choosing a server applies it; the empty choice returns to the row's default", async () => {
    const onServer = renderPanel(sampleVerification(EDGE, 1), { server: "my_server" });
    const select = screen.getByRole("combobox", { name: "Verifying server" });
    // The chosen server is offered even when no verifier runs it; the empty option names the default.
    expect(
      within(select)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual([
      `default: workplace_assistant (${ENVIRONMENT})`,
      "example_mcp_weather",
      "my_server",
      "workplace_assistant",
    ]);
    expect(select).toHaveValue("my_server");
    await userEvent.selectOptions(select, "example_mcp_weather");
    expect(onServer).toHaveBeenLastCalledWith("example_mcp_weather");
    await userEvent.selectOptions(select, "");
    expect(onServer).toHaveBeenLastCalledWith(null);
  });

  it("before a verification arrives: the head only, saying it is verifying", () => {
    renderPanel(null, { loading: true, defaultServer: null, harness: null, harnessScope: "for every agent" });
    expect(screen.getByText("verifying…")).toBeInTheDocument();
    expect(screen.getByRole("option", { name: "choose…" })).toBeInTheDocument();
    expect(screen.getByTestId("detail-harness")).toHaveTextContent("harness unknown (for every agent)");
    expect(document.querySelector("[data-policy-column]")).toBeNull();
  });

  it("shows a server name from the file as text, never as markup", () => {
    const payload = '<img src=x onerror="window.__xss=1">';
    const rollout = asRollout({
      ...rolloutWith([{ name: payload, call_id: "c0" }]),
      environment_name: payload,
    });
    const view = detailVerification(rollout, NO_CONTEXT);
    renderPanel(view, { servers: [payload] });
    const panel = screen.getByRole("region", { name: "Verification" });
    expect(panel.querySelector("img")).toBeNull();
    expect(panel).toHaveTextContent(`Verifying server ${payload}`);
    expect(screen.getByRole("link")).toHaveTextContent(`Verify through ${payload}'s own /verify on /live`);
    expect(screen.getByRole("option", { name: payload })).toBeInTheDocument();
  });
});
