"use client";
import { memo, useCallback, useDeferredValue } from "react";
import { replayName } from "@/components/badges";
import { cx } from "@/components/cx";
import { LookalikeNames } from "@/components/Name";
import { useServers } from "@/hooks/data";
import type { RolloutIndexEntry } from "@/hooks/types";
import { useStages } from "@/hooks/use-stages";
import { type HarnessChoice, harnessFor } from "@/lib/harness";
import { formatCount } from "@/lib/run";
import { badgeAt, packHolds } from "@/lib/triage";
import { CallTable } from "./CallTable";
import {
  type DetailSource,
  useDecisivePage,
  useDetail,
  useDetailBadges,
  useDetailCalls,
  useDetailItems,
  useDetailVerification,
  useRawLine,
} from "./data";
import inspector from "./Inspector.module.css";
import { callsInItems, liveLink } from "./inspector-state";
import { RawLine } from "./RawLine";
import { RolloutHeader, TaskFields } from "./RolloutHeader";
import styles from "./RolloutPane.module.css";
import { Transcript } from "./Transcript";
import type { ViewUpdate } from "./use-view-state";
import { VerificationPanel } from "./VerificationPanel";
import { WhyZero } from "./WhyZero";

const NO_SERVERS: readonly string[] = [];

interface Props {
  /** The file, as the pane reads it: memoized, the pane renders again when these or the props below change. */
  dataset: DetailSource;
  entry: RolloutIndexEntry;
  call: number | null;
  server: string | null;
  /** The harness per agent: this rollout is read under its own agent's choice. */
  harness: HarnessChoice;
  onView(update: ViewUpdate, options?: { push?: boolean }): void;
  /** Whether this rollout is marked for the report, and how to change it. */
  marked: boolean;
  onMark(marked: boolean): void;
  /** The filter hides this rollout from the list: it stays open, and says so. */
  unlisted: boolean;
}

export const RolloutPane = memo(function RolloutPane({
  dataset,
  entry,
  call,
  server,
  harness,
  onView,
  marked,
  onMark,
  unlisted,
}: Props) {
  // One parse in the worker: the summary at once, the calls and transcript items a page at a time as they
  // come on screen (from the same opened rollout), both verifications from the pool when they are done.
  const detail = useDetail(dataset, entry.line, server, harness);
  const verification = useDetailVerification(
    dataset,
    entry.line,
    server,
    harness,
    detail.isSuccess && detail.data?.line === entry.line,
  );
  const calls = useDetailCalls(dataset, entry.line, server, harness);
  const items = useDetailItems(dataset, entry.line, server, harness);
  // Badges past those the verification carries come a page at a time for the calls on screen.
  const badges = useDetailBadges(
    dataset,
    entry.line,
    server,
    harness,
    verification.isSuccess && verification.data?.badges !== undefined,
  );
  const loadDecisive = useDecisivePage(dataset, entry.line, server, harness);
  const { onTableCalls, onTranscriptCalls } = badges;
  const onCallRange = useCallback(
    (start: number, end: number) => {
      calls.onRange(start, end);
      onTableCalls(start, end);
    },
    [calls.onRange, onTableCalls],
  );
  const callItems = detail.data?.call_items;
  const onItemRange = useCallback(
    (start: number, end: number) => {
      items.onRange(start, end);
      if (callItems !== undefined) onTranscriptCalls(...callsInItems(callItems, start, end));
    },
    [items.onRange, onTranscriptCalls, callItems],
  );
  const servers = useServers();
  const fetchRaw = useRawLine();
  // Props of stable identity: the header, verdicts and raw line are memoized, and render again when they
  // change, not when a page of calls or transcript items arrives (a render of the whole pane, never sliced).
  const fetchBytes = useCallback(() => fetchRaw(dataset.id, entry.line), [fetchRaw, dataset.id, entry.line]);
  const onServer = useCallback((next: string | null) => onView({ server: next }), [onView]);
  // Stable, so the transcript's memoized items do not re-render when only the selection moves (n/p).
  const select = useCallback((index: number) => onView({ call: String(index) }), [onView]);

  // A newly opened rollout renders in a background (interruptible) render, in slices: with the first rows
  // it landed in one task of 80-90 ms on 300 MB (bench/browser.md).
  const view = useDeferredValue(detail.data);
  // The verification too: with a long rollout's why-zero sentences, tables and every shown row's badge it
  // was one task of 60-70 ms when it arrived (bench/hostile-browser.md).
  const checked = useDeferredValue(verification.data);
  // An opened rollout mounts in three tasks: its header and verdicts, then its calls, then its transcript,
  // task fields and raw line (each a commit, a style and a layout of its own: bench/main-thread.md).
  const stage = useStages(view?.line === entry.line ? `${dataset.id}:${entry.line}` : null, 3);
  if (detail.isError) return <div className="banner banner-error">Could not open line {entry.line}.</div>;
  if (!view || view.line !== entry.line) {
    return <div className={cx(inspector.placeholder, "muted")}>Opening line {entry.line}…</div>;
  }
  // Badges and decisive calls come with the verification (the calls are on screen before it).
  const decisive = new Set(checked?.triage?.decisive.map((d) => d.index) ?? []);
  const outcomeOf = (index: number) => ({
    badge:
      checked === undefined || checked === null || packHolds(checked.badges, index)
        ? badgeAt(checked?.badges, index)
        : (badges.badgeAt(index) ?? null),
    decisive: decisive.has(index),
    policy: checked?.outcome_policy ?? null,
  });
  return (
    <article
      className={styles.detail}
      data-detail-line={entry.line}
      data-verified={
        detail.isSuccess &&
        !detail.isPlaceholderData &&
        !detail.isFetching &&
        view === detail.data &&
        verification.isSuccess &&
        !verification.isPlaceholderData &&
        !verification.isFetching &&
        checked === verification.data
      }
    >
      <LookalikeNames pairs={view.lookalikes}>
        <label className="mark-rollout muted">
          <input
            type="checkbox"
            checked={marked}
            onChange={(event) => onMark(event.target.checked)}
            data-testid="mark-rollout"
          />{" "}
          mark for the report
        </label>
        {unlisted && (
          <span className={cx("muted", styles.unlisted)} data-testid="detail-unlisted">
            not in the list under the current filter
          </span>
        )}
        <RolloutHeader view={view} fileName={dataset.name} />
        <WhyZero
          key={entry.line}
          triage={checked?.triage ?? null}
          onCall={select}
          loadDecisive={loadDecisive}
        />
        <VerificationPanel
          view={checked}
          loading={verification.isFetching || verification.isPending || checked !== verification.data}
          servers={servers.data ?? NO_SERVERS}
          server={server}
          defaultServer={entry.server}
          defaultSource={entry.server_source}
          onServer={onServer}
          harness={harnessFor(harness, entry.agent)}
          harnessScope={
            entry.agent !== null && Object.hasOwn(harness.agents, entry.agent)
              ? `chosen for ${entry.agent}`
              : entry.agent === null
                ? "for rollouts without an agent"
                : "for every agent without its own"
          }
          liveHref={liveLink(dataset.ref, entry.line)}
        />
        {stage >= 2 && (
          <section className="identity" aria-label="Call identities">
            <h3>
              Calls <span className="muted">({formatCount(view.call_count)})</span>
              {checked?.outcome_policy !== undefined &&
                // No replay ran for an unverified rollout: nothing to name.
                checked[checked.outcome_policy].reward !== null &&
                view.call_count > 0 && (
                  <span
                    className={cx(styles.outcomePolicy, "muted")}
                    data-outcome-policy={checked.outcome_policy}
                  >
                    what each did in {replayName(checked.outcome_policy)}
                    {checked.outcome_policy === "legacy" ? ", the one that scored 0" : ""}
                  </span>
                )}
            </h3>
            <CallTable
              key={entry.line}
              count={view.call_count}
              callAt={calls.rowAt}
              onRange={onCallRange}
              selected={call}
              onSelect={select}
              outcomeOf={outcomeOf}
            />
          </section>
        )}
        {stage >= 3 && (
          <>
            <section className="transcript-section" aria-label="Transcript">
              <h3>Transcript</h3>
              <Transcript
                key={entry.line}
                input={view.input}
                count={view.item_count}
                itemAt={items.rowAt}
                onRange={onItemRange}
                selected={call}
                selectedItem={call === null ? null : (view.call_items[call] ?? null)}
                onSelect={select}
                outcomeOf={outcomeOf}
              />
            </section>
            <TaskFields fields={view.extra_fields} />
            <RawLine
              byteLength={view.byte_length}
              fileName={dataset.name}
              line={entry.line}
              fetchBytes={fetchBytes}
            />
          </>
        )}
      </LookalikeNames>
    </article>
  );
});
