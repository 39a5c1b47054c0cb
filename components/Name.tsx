"use client";
import { createContext, type ReactNode, useContext, useMemo } from "react";
import { type Lookalikes, NAME_FLAG_HELP, type NameFlag, showName } from "@/lib/names";
import styles from "./Name.module.css";

const FLAG_WORDS: Record<NameFlag, string> = {
  invisible_characters: "invisible characters",
  bidi_controls: "bidi controls",
  mixed_scripts: "mixed scripts",
  lookalike_characters: "look-alike characters",
  whitespace: "odd spaces",
  confusable: "confusable",
};

/** The names of the rollout on screen that look like another of its names (worker: DetailView.lookalikes). */
const LookalikeContext = createContext<Lookalikes | undefined>(undefined);

/** Makes every Name inside flag the given look-alikes `confusable` (pairs: [name, the name it looks like]). */
export function LookalikeNames({
  pairs,
  children,
}: {
  pairs: readonly (readonly [string, string])[];
  children: ReactNode;
}) {
  const value = useMemo<Lookalikes>(() => {
    const map = new Map(pairs);
    return { lookalike: (name) => map.get(name) ?? null };
  }, [pairs]);
  return <LookalikeContext.Provider value={value}>{children}</LookalikeContext.Provider>;
}

/**
 * A file-controlled identifier (server, tool, alias, call_id) shown truthfully: suspicious code points
 * appear as marked ⟨U+XXXX⟩ pieces and a flag says why (lib/names decides which). A plain name renders
 * as plain text.
 */
export function Name({ value }: { value: string }) {
  const known = useContext(LookalikeContext);
  const shown = showName(value, known);
  if (shown.flags.length === 0) return <>{value}</>;
  const other = known?.lookalike(value) ?? null;
  const help =
    shown.flags.map((f) => NAME_FLAG_HELP[f]).join("; ") +
    (other === null ? "" : `; it looks like "${showName(other).display}"`);
  return (
    <span
      className="name-marked"
      data-name-flags={shown.flags.join(" ")}
      title={help}
      {...(other === null ? {} : { "data-lookalike": other })}
    >
      {shown.segments.map((segment, i) =>
        segment.marked ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of one fixed string, never reordered
          <mark className={styles.nameEscape} data-testid="name-escape" key={i}>
            {segment.text}
          </mark>
        ) : (
          segment.text
        ),
      )}
      <span className={styles.nameFlag} data-name-flag={shown.flags.join(" ")}>
        {shown.flags.map((f) => FLAG_WORDS[f]).join(", ")}
      </span>
    </span>
  );
}

/** Plain-text form for places that cannot hold markup (option labels, titles); `known` as for showName. */
export function nameLabel(value: string, known?: Lookalikes): string {
  const shown = showName(value, known);
  if (shown.flags.length === 0) return value;
  return `${shown.display} (${shown.flags.map((f) => FLAG_WORDS[f]).join(", ")})`;
}
