import type { FollowSummary } from "@/hooks/types";

/**
 * The server stopped answering (view stopped, an SSH tunnel dropped, view started again with a new token):
 * lines written since are not read, which must not read as a run that wrote nothing.
 */
export function unreachableText(since: number): string {
  const at = new Date(since).toTimeString().slice(0, 8);
  return `Not following: the view server has not answered since ${at} (view stopped, or its SSH tunnel dropped), so lines written since then are not read. Asked again every second: this file is followed again once it answers. If view was started again, open the URL it printed (its token is new).`;
}

/** The server answers but refuses this tab: `view` was started again, with a new token. */
export function refusedText(since: number): string {
  const at = new Date(since).toTimeString().slice(0, 8);
  return `Not following: the view server refuses this tab since ${at} (view was started again, and its token is new), so lines written since then are not read. Open the URL view printed when it started (…?token=…): the folder is read again there.`;
}

/**
 * A served file's state (a folder `cli view` serves): following, a line still being written, why it stopped,
 * or why it is read once and not followed (a gzip file).
 */
export function FollowBanner({
  follow,
  name,
  others = 0,
  onReadAgain,
}: {
  follow: FollowSummary;
  /** The file shown (a folder may have several rollouts files, each followed): named, not "this file". */
  name: string;
  /** The folder's other rollouts files followed too (the whole folder's answer grows with them). */
  others?: number;
  /**
   * Reads the served folder again (a served file has no picker to reopen it from), offered once a file changed
   * on disk; not while the server is silent (reading again then loses the page). Absent for local files.
   */
  onReadAgain?: () => void;
}) {
  const again = onReadAgain && (
    <>
      {" "}
      <button type="button" className="link-button" data-testid="follow-read-again" onClick={onReadAgain}>
        Read the folder again
      </button>
    </>
  );
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
        {again}
      </div>
    );
  }
  if (follow.unreachable_since !== null) {
    return (
      <div className="banner banner-error" role="alert" data-testid="follow-unreachable">
        {follow.refused ? refusedText(follow.unreachable_since) : unreachableText(follow.unreachable_since)}
      </div>
    );
  }
  return (
    <div className="banner" data-testid="follow-state">
      {/* One run of text: the banner lays its children out in a row, a gap between each. */}
      <span>
        Following <span className="mono">{name}</span>
        {others > 0 &&
          ` and the folder's ${others === 1 ? "other rollouts file" : `${others} other rollouts files`}`}
        : lines the run appends join the list as they are written.
        {follow.waiting_bytes > 0 &&
          ` A last line of ${follow.waiting_bytes} bytes waits for its line break.`}
      </span>
    </div>
  );
}
