import type { FollowSummary } from "@/hooks/types";

/** A followed file's state (a folder `cli view` serves): following, a line still being written, or why it stopped. */
export function FollowBanner({ follow }: { follow: FollowSummary }) {
  if (follow.problem !== null) {
    return (
      <div className="banner banner-error" role="alert" data-testid="follow-problem">
        {follow.problem}
      </div>
    );
  }
  return (
    <div className="banner" data-testid="follow-state">
      Following this file: lines the run appends join the list as they are written.
      {follow.waiting_bytes > 0 && ` A last line of ${follow.waiting_bytes} bytes waits for its line break.`}
    </div>
  );
}
