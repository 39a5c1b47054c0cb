import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FollowBanner } from "./FollowBanner";

const following = {
  following: true,
  waiting_bytes: 0,
  problem: null,
  unreachable_since: null,
  refused: false,
  gone: false,
  not_followed: null,
};

afterEach(cleanup);

describe("FollowBanner", () => {
  it("says the file is followed, and a line that waits for its break", () => {
    render(<FollowBanner name="run/rollouts.jsonl" follow={{ ...following, waiting_bytes: 12 }} />);
    expect(screen.getByTestId("follow-state").textContent).toBe(
      "Following run/rollouts.jsonl: lines the run appends join the list as they are written. A last line of 12 bytes waits for its line break.",
    );
  });

  it("names the folder's other rollouts files followed too", () => {
    render(<FollowBanner name="a/rollouts.jsonl" others={2} follow={following} />);
    expect(screen.getByTestId("follow-state").textContent).toBe(
      "Following a/rollouts.jsonl and the folder's 2 other rollouts files: lines the run appends join the list as they are written.",
    );
    cleanup();
    render(<FollowBanner name="a/rollouts.jsonl" others={1} follow={following} />);
    expect(screen.getByTestId("follow-state").textContent).toContain("and the folder's other rollouts file:");
  });

  it("says when the server stopped answering, never that it is following", () => {
    const since = new Date(2026, 11, 4, 18, 5, 9).getTime();
    render(<FollowBanner name="run/rollouts.jsonl" follow={{ ...following, unreachable_since: since }} />);
    expect(screen.queryByTestId("follow-state")).toBeNull();
    expect(screen.getByRole("alert").textContent).toContain("has not answered since 18:05:09");
    expect(screen.queryByTestId("follow-read-again")).toBeNull();
    cleanup();
    // It answers, refusing this tab's token (view started again): said as such, with the way back.
    render(
      <FollowBanner
        name="run/rollouts.jsonl"
        follow={{ ...following, unreachable_since: since, refused: true }}
      />,
    );
    expect(screen.getByRole("alert").textContent).toContain(
      "the view server refuses this tab since 18:05:09 (view was started again, and its token is new)",
    );
    cleanup();
    // Not even in a served tab: reading the folder again while its server is down would lose the page.
    render(
      <FollowBanner
        name="run/rollouts.jsonl"
        follow={{ ...following, unreachable_since: since }}
        onReadAgain={() => {}}
      />,
    );
    expect(screen.queryByTestId("follow-read-again")).toBeNull();
  });

  it("offers to read a served folder again once its file changed on disk", async () => {
    const readAgain = vi.fn();
    render(
      <FollowBanner
        name="run/rollouts.jsonl"
        follow={{ ...following, following: false, problem: "The file shrank" }}
        onReadAgain={readAgain}
      />,
    );
    await userEvent.click(screen.getByTestId("follow-read-again"));
    expect(readAgain).toHaveBeenCalledOnce();
  });
});
