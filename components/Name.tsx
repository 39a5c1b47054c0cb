import { NAME_FLAG_HELP, type NameFlag, showName } from "@/lib/names";

const FLAG_WORDS: Record<NameFlag, string> = {
  invisible_characters: "invisible characters",
  bidi_controls: "bidi controls",
  mixed_scripts: "mixed scripts",
  lookalike_characters: "look-alike characters",
};

/**
 * A file-controlled identifier (server, tool, alias, call_id) shown truthfully: suspicious code points
 * appear as marked ⟨U+XXXX⟩ pieces and a flag says why (lib/names decides which). A plain name renders
 * as plain text.
 */
export function Name({ value }: { value: string }) {
  const shown = showName(value);
  if (shown.flags.length === 0) return <>{value}</>;
  const help = shown.flags.map((f) => NAME_FLAG_HELP[f]).join("; ");
  return (
    <span className="name-marked" data-name-flags={shown.flags.join(" ")} title={help}>
      {shown.segments.map((segment, i) =>
        segment.marked ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of one fixed string, never reordered
          <mark className="name-escape" key={i}>
            {segment.text}
          </mark>
        ) : (
          segment.text
        ),
      )}
      <span className="name-flag" data-name-flag={shown.flags.join(" ")}>
        {shown.flags.map((f) => FLAG_WORDS[f]).join(", ")}
      </span>
    </span>
  );
}

/** Plain-text form for places that cannot hold markup (option labels, titles). */
export function nameLabel(value: string): string {
  const shown = showName(value);
  if (shown.flags.length === 0) return value;
  return `${shown.display} (${shown.flags.map((f) => FLAG_WORDS[f]).join(", ")})`;
}
