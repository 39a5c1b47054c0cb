import { Fragment, memo, useState } from "react";
import { cx } from "@/components/cx";
import triageStyles from "@/features/run/TriagePanel.module.css";
import type { DetailTriage } from "@/hooks/types";
import { formatCount } from "@/lib/run";
import {
  type DecisiveCall,
  REPRODUCTION_TEXT,
  triageHeading,
  ZERO_CAUSE_HINTS,
  ZERO_CAUSE_LABELS,
} from "@/lib/triage";
import styles from "./WhyZero.module.css";

/** Decisive calls fetched per "show more" (as many as the verification lists at first). */
export const DECISIVE_PAGE = 50;

/** "call #k" in a sentence (lib/triage's wording): k is the 0-based call number. */
const CALL_REF = /(call #\d+)/;

/** A sentence with every "call #k" as a button that reveals call k (its card and transcript step). */
export function CallText({ text, onCall }: { text: string; onCall(index: number): void }) {
  // Each part is keyed by where it starts in the text (parts repeat; their places do not).
  let at = 0;
  const parts = text.split(CALL_REF).map((part) => {
    const start = at;
    at += part.length;
    return { part, start };
  });
  return (
    <>
      {parts.map(({ part, start }) => {
        const match = /^call #(\d+)$/.exec(part);
        if (match === null) return <Fragment key={start}>{part}</Fragment>;
        const index = Number(match[1]);
        return (
          <button
            type="button"
            key={start}
            className={styles.callLink}
            data-call-link={index}
            onClick={() => onCall(index)}
          >
            {part}
          </button>
        );
      })}
    </>
  );
}

/**
 * Why this rollout scored 0: its cause, the sentence (each "call #k" a link to the call), the decisive calls
 * with why, drift's explanation and which policy reproduces the recorded reward. A long rollout's decisive
 * calls beyond the listed ones come `DECISIVE_PAGE` at a time from `loadDecisive` ("show more"), so each
 * is reachable.
 */
export const WhyZero = memo(function WhyZero({
  triage,
  onCall,
  loadDecisive,
}: {
  triage: DetailTriage | null;
  onCall(index: number): void;
  /** Decisive calls [start, end) in call order (the worker keeps them all). */
  loadDecisive?(start: number, end: number): Promise<readonly DecisiveCall[] | null>;
}) {
  // Decisive calls loaded beyond the listed ones (the component is keyed by rollout).
  const [more, setMore] = useState<readonly DecisiveCall[]>([]);
  const [loading, setLoading] = useState(false);
  if (triage === null) return null;
  const shown = [...triage.decisive, ...more];
  const left = triage.decisive_total - shown.length;
  const showMore = () => {
    if (loadDecisive === undefined) return;
    setLoading(true);
    void loadDecisive(shown.length, shown.length + DECISIVE_PAGE)
      .then((calls) => setMore((previous) => [...previous, ...(calls ?? [])]))
      .finally(() => setLoading(false));
  };
  return (
    <section
      className={styles.whyZero}
      aria-label="Why zero"
      data-testid="why-zero"
      data-why-cause={triage.cause}
      data-decisive={triage.decisive.map((call) => call.index).join(" ")}
      data-decisive-total={triage.decisive_total}
    >
      <div>
        <span
          className={cx(triageStyles.causeSwatch, triageStyles[`fill_${triage.cause}`])}
          aria-hidden="true"
        />{" "}
        <b title={ZERO_CAUSE_HINTS[triage.cause]} data-testid="why-heading">
          {triageHeading(triage)}: {ZERO_CAUSE_LABELS[triage.cause]}
        </b>
        {triage.reproduced_by !== null && (
          <span className="muted" data-testid="why-reproduced" data-reproduced={triage.reproduced_by}>
            {" "}
            · recorded {triage.recorded ?? "none"}, contract {triage.contract ?? "none"}, legacy{" "}
            {triage.legacy ?? "none"}: {REPRODUCTION_TEXT[triage.reproduced_by]}
          </span>
        )}
      </div>
      <p data-testid="why-sentence">
        <CallText text={triage.sentence} onCall={onCall} />
      </p>
      {triage.recorded_fields.length > 0 && (
        // The verifier's own account where this project cannot replay it: shown as written, as text.
        <p className={styles.recorded} data-testid="why-recorded">
          <span className="muted">Beside its reward, the line records: </span>
          {triage.recorded_fields.map((field, i) => (
            <Fragment key={field.key}>
              {i > 0 && " · "}
              <code>{field.key}</code> {field.value}
            </Fragment>
          ))}
        </p>
      )}
      {triage.drift !== null && triage.cause !== "drift" && (
        <p data-testid="why-drift">
          <b>Drift:</b> <CallText text={triage.drift} onCall={onCall} />
        </p>
      )}
      {shown.length > 0 && (
        <ul className={styles.decisiveList} data-testid="decisive-calls">
          {shown.map((call) => (
            <li key={call.index} data-decisive-call={call.index}>
              <CallText text={`call #${call.index}`} onCall={onCall} /> {call.why}
            </li>
          ))}
          {left > 0 && (
            <li className="muted">
              and {formatCount(left)} more{" "}
              {loadDecisive && (
                <button
                  type="button"
                  className="link-button"
                  data-testid="decisive-more"
                  disabled={loading}
                  onClick={showMore}
                >
                  show {Math.min(left, DECISIVE_PAGE)} more
                </button>
              )}
            </li>
          )}
        </ul>
      )}
    </section>
  );
});
