import Link from "next/link";
import { Fragment, memo, useState } from "react";
import { cx } from "@/components/cx";
import { PathText } from "@/components/PathText";
import { MEAN_DECIMALS, meanRewardsText, passAtKText } from "@/lib/metrics";
import { count, percent, type Reward, unverifiedText, zeroShareText } from "@/lib/run";
import {
  AGENT_CAUSES,
  causeCount,
  fixedByMapText,
  moreFieldsText,
  namedGroups,
  passesText,
  recordedFieldsHeading,
  reproducedText,
  textCallsText,
  valueCountsText,
  ZERO_CAUSE_HINTS,
  ZERO_CAUSE_LABELS,
  type ZeroCause,
} from "@/lib/triage";
import styles from "./FolderTriage.module.css";
import type { WholeFolderView } from "./run-view";

interface Props {
  view: WholeFolderView;
  /** The run view's reward setting: the zeros and means counted in it. */
  reward: Reward;
  /** The dataset shown now (its line in the files' table is marked). */
  shown: string | null;
  /**
   * A file chosen in the files' table: its list narrowed to the chosen cause's rollouts, or with no cause
   * clause (`null`: none chosen, or the file has none of it), so a cause chosen before does not linger.
   */
  onFile(dataset: string, cause: ZeroCause | null): void;
  /** Files whose rows are as first read: changed on disk since (rewritten or truncated by another run). */
  stale: readonly string[];
  /** Reads the served folder again (absent for a picked folder, which is picked again). */
  onReadAgain?: () => void;
  /** Its runs of one experiment (hooks/comparable-runs folderComparisons), each with its /compare link. */
  comparisons?: readonly { readonly a: string; readonly b: string; readonly href: string }[];
}

/** Pairs of runs named at once (a folder of ten runs of one server has 45: the rest fold). */
const COMPARISONS_SHOWN = 4;

function ComparisonLink({
  pair,
}: {
  pair: { readonly a: string; readonly b: string; readonly href: string };
}) {
  return (
    <Link href={pair.href} data-testid="folder-compare">
      <PathText path={pair.a} /> vs <PathText path={pair.b} />
    </Link>
  );
}

/** Files listed open at most: a whole Gym tree (86 rollouts files) folds its table. */
const FILES_OPEN_MAX = 12;

/**
 * Every rollouts file of the folder summed, as `cli triage DIR` sums them: the zeros per cause, what Gym's
 * verifier recorded on those no port verifies, the means and pass@k, and each file's zeros with a button
 * that shows it. Read-only: a cause or a value narrows one file's list, in the panel below.
 */
export const FolderTriage = memo(function FolderTriage({
  view,
  reward,
  shown,
  onFile,
  stale,
  onReadAgain,
  comparisons = [],
}: Props) {
  const triage = view.triage[reward];
  // A cause chosen in the folder's table: each file's count of it, and a file opens on those rollouts.
  const [chosen, setChosen] = useState<ZeroCause | null>(null);
  const cause = chosen !== null && causeCount(triage, chosen) > 0 ? chosen : null;
  const causeButton = (which: ZeroCause, label: string) => (
    <button
      type="button"
      className={cx(styles.causeButton, cause === which && styles.causeOn)}
      aria-pressed={cause === which}
      data-testid="folder-cause"
      onClick={() => setChosen(cause === which ? null : which)}
    >
      {label}
    </button>
  );
  const causes = AGENT_CAUSES.filter((cause) => causeCount(triage, cause) > 0);
  const fixed = fixedByMapText(triage);
  const textCalls = textCallsText(triage);
  // Which file's zeros a map rescues: the sentence above counts them all, the column says where to look.
  const rescues = triage.fixed_by_map.lines.length > 0;
  const notVerified = unverifiedText(view.unverified, triage.total, reward);
  // Each server's counts with something to show, named when the folder has several servers to count.
  const shownGroups = namedGroups(view.recorded_fields).filter(
    ({ summary }) => recordedFieldsHeading(summary) !== null,
  );
  return (
    <section
      className={styles.folder}
      aria-label="Whole folder"
      data-testid="folder-triage"
      data-zero={triage.zero}
      data-files={view.files.length}
    >
      <div className={styles.head}>
        <h3>Whole folder</h3>
        <span className="muted">{count(view.files.length, "rollouts file", "rollouts files")} summed</span>
      </div>
      {stale.length > 0 && (
        <p
          className={cx("banner", "banner-error", styles.line)}
          role="alert"
          data-testid="folder-triage-stale"
        >
          {/* One span for the sentence: the banner lays out its children as a row. */}
          <span>
            {count(stale.length, "file", "files")} changed on disk after{" "}
            {stale.length === 1 ? "it was" : "they were"} read, so the sums below count{" "}
            {stale.length === 1 ? "its" : "their"} rows as first read: {stale.join(", ")}. Read the folder
            again to count what {stale.length === 1 ? "it holds" : "they hold"} now.
          </span>
          {onReadAgain && (
            <button
              type="button"
              className="link-button"
              data-testid="folder-read-again"
              onClick={onReadAgain}
            >
              Read the folder again
            </button>
          )}
        </p>
      )}
      <p className={styles.line} data-testid="folder-triage-headline">
        {zeroShareText(triage.zero, view.counts, reward, triage.negative, triage.total - triage.scored)}
      </p>
      {notVerified !== null && <p className={cx("muted", styles.line)}>{notVerified}</p>}
      {causes.length > 0 && (
        <table className={styles.table} data-testid="folder-triage-causes">
          <thead>
            <tr>
              <th>{reward === "recorded" ? "why the recorded zeros" : `why the zeros under ${reward}`}</th>
              <th className={styles.num}>rollouts</th>
              <th className={styles.num}>share</th>
            </tr>
          </thead>
          <tbody>
            {causes.map((cause) => (
              <tr key={cause} data-cause={cause} data-count={causeCount(triage, cause)}>
                <td title={ZERO_CAUSE_HINTS[cause]}>{causeButton(cause, ZERO_CAUSE_LABELS[cause])}</td>
                <td className={styles.num}>{causeCount(triage, cause)}</td>
                <td className={cx("muted", styles.num)}>
                  {percent(causeCount(triage, cause), triage.total)}
                </td>
              </tr>
            ))}
            {triage.drifted.length > 0 && (
              <tr data-cause="drift" data-count={triage.drifted.length}>
                <td title={ZERO_CAUSE_HINTS.drift}>
                  {causeButton("drift", `${ZERO_CAUSE_LABELS.drift} (counted apart, over the whole run)`)}
                </td>
                <td className={styles.num}>{triage.drifted.length}</td>
                <td className={cx("muted", styles.num)}>{percent(triage.drifted.length, triage.total)}</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      {textCalls !== null && (
        <p className={cx("muted", styles.line)} data-testid="folder-triage-text-calls">
          {textCalls}
        </p>
      )}
      {fixed !== null && (
        <p className={styles.line} data-testid="folder-triage-fixed-by-map">
          {fixed} Each file&apos;s count is in its files&apos; table (&ldquo;a map rescues&rdquo;): open the
          file to list them.
        </p>
      )}
      {reward === "recorded" && shownGroups.length > 0 && (
        // A folder of many servers' runs (Gym's tree: 42) folds them, one line to open them by.
        <details open={shownGroups.length === 1} className={styles.files}>
          <summary className="muted" data-testid="folder-triage-recorded-summary">
            What Gym&apos;s verifiers wrote on the zeros not verified here:{" "}
            {count(shownGroups.length, "verifier", "verifiers")}
          </summary>
          {shownGroups.map(({ group, file, summary }) => (
            <div
              key={`${group ?? ""}\0${file ?? ""}`}
              data-testid="folder-triage-recorded"
              data-group={group ?? ""}
              data-file={file ?? ""}
            >
              <p className={cx("muted", styles.line)}>{recordedFieldsHeading(summary, group, file)}</p>
              <ul className={styles.recorded}>
                {summary.fields.map((field) => (
                  <li key={field.key} data-field={field.key}>
                    <code>{field.key}</code>: {valueCountsText(field.zeros)}
                    {passesText(field) !== null && <span className="muted"> ({passesText(field)})</span>}
                  </li>
                ))}
              </ul>
              {moreFieldsText(summary) !== null && (
                <p className={cx("muted", styles.line)}>{moreFieldsText(summary)}.</p>
              )}
            </div>
          ))}
        </details>
      )}
      <p className={cx("muted", styles.line)} data-testid="folder-triage-reproduced">
        {reproducedText(triage)}
      </p>
      <p className={cx("muted", styles.line)} data-testid="folder-triage-means">
        {meanRewardsText(view.metrics[reward])}; {passAtKText(view.metrics[reward])}
      </p>
      <details open={view.files.length <= FILES_OPEN_MAX || cause !== null} className={styles.files}>
        <summary className="muted">Each file&apos;s zeros</summary>
        {cause !== null && (
          <p className={styles.line} data-testid="folder-cause-files">
            {causeCount(triage, cause)} “{ZERO_CAUSE_LABELS[cause]}” in{" "}
            {count(view.files.filter((file) => file.causes[reward][cause] > 0).length, "file", "files")}: a
            file opens on its rollouts of this cause.
          </p>
        )}
        <table className={styles.table} data-testid="folder-triage-files">
          <thead>
            <tr>
              <th>file</th>
              <th className={styles.num}>rollouts</th>
              <th className={styles.num}>
                {reward === "recorded" ? "recorded ≤\u00a00" : `≤\u00a00 under ${reward}`}
              </th>
              <th className={styles.num}>mean {reward}</th>
              {cause !== null && (
                <th className={styles.num} title={ZERO_CAUSE_HINTS[cause]}>
                  {ZERO_CAUSE_LABELS[cause]}
                </th>
              )}
              {rescues && (
                <th
                  className={styles.num}
                  title="Zeros that score above 0 with a harness's provenance map for their calls (harness what-if)"
                >
                  a map rescues
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {view.files.map((file) => (
              <tr
                key={file.dataset}
                data-file={file.file}
                data-zero={file.zero[reward]}
                className={cause !== null && file.causes[reward][cause] === 0 ? "muted" : undefined}
              >
                <td>
                  <button
                    type="button"
                    className={cx(styles.file, file.dataset === shown && styles.fileOn)}
                    aria-current={file.dataset === shown ? "true" : undefined}
                    onClick={() =>
                      // A file without the cause opens as it is (filtered on it, it would list nothing).
                      onFile(file.dataset, cause !== null && file.causes[reward][cause] > 0 ? cause : null)
                    }
                  >
                    <PathText path={file.file} />
                  </button>
                </td>
                <td className={styles.num}>{file.counts.rollouts}</td>
                <td className={styles.num}>
                  {file.zero[reward]}
                  {file.scored[reward] < file.counts.rollouts && (
                    <span className="muted"> of {file.scored[reward]}</span>
                  )}
                </td>
                <td className={styles.num}>
                  {file.mean[reward] === null ? "n/a" : file.mean[reward].toFixed(MEAN_DECIMALS)}
                </td>
                {cause !== null && (
                  <td className={styles.num} data-cause-count={file.causes[reward][cause]}>
                    {file.causes[reward][cause]}
                  </td>
                )}
                {rescues && (
                  <td className={styles.num} data-fixed-by-map={file.fixed_by_map[reward]}>
                    {file.fixed_by_map[reward]}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {comparisons.length > 0 && (
        <div className={styles.line} data-testid="folder-comparisons">
          Runs of one experiment, side by side (the same task rows, or the same verifying server):{" "}
          {comparisons.slice(0, COMPARISONS_SHOWN).map((pair, at) => (
            <Fragment key={pair.href}>
              {at > 0 && "; "}
              <ComparisonLink pair={pair} />
            </Fragment>
          ))}
          {comparisons.length > COMPARISONS_SHOWN && (
            <details>
              <summary className="muted">and {comparisons.length - COMPARISONS_SHOWN} more</summary>
              {comparisons.slice(COMPARISONS_SHOWN).map((pair, at) => (
                <Fragment key={pair.href}>
                  {at > 0 && "; "}
                  <ComparisonLink pair={pair} />
                </Fragment>
              ))}
            </details>
          )}
        </div>
      )}
    </section>
  );
});
