import type { FollowSummary } from "@/hooks/types";

/**
 * A served file's state (a folder `cli view` serves): following, a line still being written, why it stopped,
 * or why it is read once and not followed (a gzip file).
 */
export function FollowBanner({ follow }: { follow: FollowSummary }) {
  if (follow.not_followed !== null) {
    return (
      <div className="banner" data-testid="follow-none">
        {follow.not_followed}
      </div>
    );
  }
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
