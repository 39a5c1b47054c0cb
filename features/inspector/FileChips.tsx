import { cx } from "@/components/cx";
import { Name } from "@/components/Name";
import type { DatasetSummary } from "@/hooks/types";
import { displayName } from "@/lib/names";
import { count, lineCountsText } from "@/lib/run";
import styles from "./Inspector.module.css";

/**
 * Past this many files (rollouts and inputs alike: each is a chip) the header lists the rollouts files in one
 * select instead of a chip each. Gym's whole resources_servers/ tree has 86 rollouts files (and as many
 * task-row files), whose chips filled the 900 px window and left the inspector no room; its environments/
 * tree, 12 rollouts files and 12 task-row files, took the top 600 px. Twelve chips take two or three rows at
 * 1440 px.
 */
export const MAX_FILE_CHIPS = 12;

function countsText(file: DatasetSummary): string {
  return `${lineCountsText({ rollouts: file.rows, unreadable: file.error_count })}${file.paired_inputs ? ` · ${file.paired_rows} paired` : ""}${followNote(file)}`;
}

/** A served file no longer what was read (rewritten, truncated, gone): its rows are as first read. */
export function changedOnDisk(file: DatasetSummary): boolean {
  return file.follow?.problem != null;
}

/**
 * A served file that is no longer read as it grows, said on its chip: its rows are as first read (a file
 * rewritten by another run), or its server stopped answering. Its banner, shown with the file, says why.
 */
export function followNote(file: DatasetSummary): string {
  if (file.follow?.gone === true) return " · gone from the served folder, rows as first read";
  if (changedOnDisk(file)) return " · changed on disk, rows as first read";
  if (file.follow?.unreachable_since != null)
    return file.follow.refused ? " · server refuses this tab" : " · server not answering";
  return "";
}

/** The opened files in the header: the rollouts files to choose between, and the inputs files beside them. */
export function FileChips({
  rollouts,
  inputs,
  shown,
  names,
  onChoose,
}: {
  rollouts: readonly DatasetSummary[];
  inputs: readonly DatasetSummary[];
  /** The rollouts file on screen. */
  shown: string | null;
  /** How each file is named apart from its namesakes (hooks/file-labels). */
  names: ReadonlyMap<string, string>;
  onChoose: (id: string) => void;
}) {
  const nameOf = (file: DatasetSummary) => names.get(file.id) ?? file.name;
  if (rollouts.length + inputs.length > MAX_FILE_CHIPS) {
    return (
      <div className={styles.files} data-testid="file-select">
        <label className={styles.fileSelect}>
          <span className="muted">
            {count(rollouts.length, "rollouts file", "rollouts files")}
            {inputs.length > 0 ? `, ${count(inputs.length, "inputs file", "inputs files")}` : ""}:
          </span>
          {/* Option text is plain text: the name's suspicious code points shown as ⟨U+XXXX⟩ (lib/names). */}
          <select value={shown ?? ""} onChange={(event) => onChoose(event.target.value)}>
            {rollouts.map((file) => (
              <option key={file.id} value={file.id} data-dataset-id={file.id}>
                {displayName(nameOf(file))} · {countsText(file)}
              </option>
            ))}
          </select>
        </label>
      </div>
    );
  }
  return (
    <div className={styles.files}>
      {rollouts.map((candidate) => (
        <button
          type="button"
          key={candidate.id}
          className={cx(
            styles.fileChip,
            candidate.id === shown && styles.fileChipOn,
            followNote(candidate) !== "" && styles.fileChipStale,
          )}
          onClick={() => onChoose(candidate.id)}
          data-dataset={candidate.name}
          data-dataset-id={candidate.id}
          title={`${candidate.name}: ${candidate.lines} lines, ${candidate.bytes} bytes`}
        >
          {/* The file name is isolated: its bidi text never reorders the counts beside it. */}
          <bdi className="chip-name">
            <Name value={nameOf(candidate)} />
          </bdi>
          <span className="muted" data-testid="chip-counts">
            {" "}
            {countsText(candidate)}
          </span>
        </button>
      ))}
      {inputs.map((candidate) => (
        <span
          key={candidate.id}
          className={cx(styles.fileChip, styles.fileChipInputs)}
          data-inputs={candidate.name}
          title={candidate.name}
        >
          <bdi className="chip-name">
            <Name value={nameOf(candidate)} />
          </bdi>{" "}
          <span className="muted" data-testid="chip-counts">
            inputs · {candidate.rows} rows{followNote(candidate)}
          </span>
        </span>
      ))}
    </div>
  );
}
