/**
 * The detail pane's why-zero block on a long rollout: the decisive calls the verification lists first, and
 * every further one reachable through "show more" (pages from the worker), each a link to its call. The
 * rollout is the generator's realistic long rollout, verified by the worker's own code.
 */
import { readFileSync } from "node:fs";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { readRollout } from "@/lib/schemas";
import { asRollout } from "@/lib/schemas/test-helpers";
import { realisticLongRollout } from "@/scripts/gen-hostile";
import { LISTED_DECISIVE, verifiedDetail } from "@/worker/core";
import { DECISIVE_PAGE, WhyZero } from "./WhyZero";

function verified(calls: number) {
  const read = readRollout(
    JSON.parse(
      JSON.stringify(
        realisticLongRollout(calls, { harness: "claude-code", distinctArguments: true, reasoning: false }),
      ),
    ),
  );
  if (!read.ok) throw new Error("the generator's rollout does not read");
  return verifiedDetail(read.rollout, { input: undefined, override: null, sample: null, harness: null });
}

describe("WhyZero on a long rollout", () => {
  it("lists the first decisive calls, loads the rest a page at a time, and every one links to its call", async () => {
    const detail = verified(600);
    const triage = detail.view.triage;
    if (triage === null) throw new Error("the long rollout scored above 0");
    const total = detail.decisive.length;
    expect(triage.decisive_total).toBe(total);
    expect(total).toBeGreaterThan(LISTED_DECISIVE + DECISIVE_PAGE);
    const load = vi.fn(async (start: number, end: number) => detail.decisive.slice(start, end));
    const onCall = vi.fn<(index: number) => void>();
    render(<WhyZero triage={triage} onCall={onCall} loadDecisive={load} />);
    const listed = () =>
      [...document.querySelectorAll("[data-decisive-call]")].map((li) =>
        Number(li.getAttribute("data-decisive-call")),
      );
    expect(listed()).toEqual(detail.decisive.slice(0, LISTED_DECISIVE).map((c) => c.index));
    while (screen.queryByTestId("decisive-more") !== null) {
      await userEvent.click(screen.getByTestId("decisive-more"));
      await screen.findAllByRole("listitem");
    }
    await vi.waitFor(() => expect(listed()).toHaveLength(total));
    expect(listed()).toEqual(detail.decisive.map((c) => c.index));
    expect(load).toHaveBeenLastCalledWith(
      LISTED_DECISIVE + DECISIVE_PAGE * (load.mock.calls.length - 1),
      LISTED_DECISIVE + DECISIVE_PAGE * load.mock.calls.length,
    );
    // The last decisive call is a link to that call.
    const last = detail.decisive.at(-1)?.index ?? -1;
    await userEvent.click(screen.getByRole("button", { name: `call #${last}` }));
    expect(onCall).toHaveBeenLastCalledWith(last);
  });

  it("offers nothing more when every decisive call is listed", () => {
    const detail = verified(30);
    if (detail.view.triage === null) throw new Error("the rollout scored above 0");
    render(<WhyZero triage={detail.view.triage} onCall={() => {}} loadDecisive={async () => []} />);
    expect(screen.queryByTestId("decisive-more")).toBeNull();
  });

  it("heads a zero 'Why zero' and a negative reward 'Why below zero'", () => {
    const triage = verified(30).view.triage;
    if (triage === null) throw new Error("the rollout scored above 0");
    const { unmount } = render(<WhyZero triage={triage} onCall={() => {}} />);
    expect(screen.getByTestId("why-heading").textContent).toMatch(/^Why zero: /);
    unmount();
    // Blackjack records -1 for a loss: every reward that needs a cause is below zero.
    render(<WhyZero triage={{ ...triage, recorded: -1, contract: -1, legacy: -1 }} onCall={() => {}} />);
    expect(screen.getByTestId("why-heading").textContent).toMatch(/^Why below zero: /);
  });
});

describe("WhyZero where this project has no port of the verifier", () => {
  it("shows what the line records beside its reward, as written (Gym's xlam_fc: num_correct 0)", () => {
    const line = readFileSync(
      "fixtures/gym-examples/resources_servers/xlam_fc/data/example_rollouts.jsonl",
      "utf8",
    ).split("\n")[3];
    const detail = verifiedDetail(asRollout(JSON.parse(line ?? "")), {
      input: undefined,
      override: "xlam_fc",
      sample: null,
      harness: null,
    });
    const triage = detail.view.triage;
    if (triage === null) throw new Error("xlam_fc line 4 recorded above 0");
    expect(triage.cause).toBe("no_verifier_port");
    render(<WhyZero triage={triage} onCall={() => {}} />);
    expect(screen.getByTestId("why-recorded")).toHaveTextContent(
      "Beside its reward, the line records: num_expected 1 · num_predicted 1 · num_correct 0",
    );
  });

  it("shows nothing of the kind where the cause comes from this project's own replay", () => {
    const triage = verified(600).view.triage;
    if (triage === null) throw new Error("the long rollout scored above 0");
    expect(triage.recorded_fields).toEqual([]);
    render(<WhyZero triage={triage} onCall={() => {}} />);
    expect(screen.queryByTestId("why-recorded")).toBeNull();
  });
});
