"use client";
import { type DragEvent, type ReactNode, useEffect, useRef, useState } from "react";
import type { SamplesList } from "@/hooks/data";
import { folderFromDrop, folderFromInput, type PickedFolder } from "@/hooks/folder-files";
import type { LoadProgress, RecentFile, Sample } from "@/hooks/types";
import { formatBytes, formatCount } from "@/lib/run";
import badges from "./badges.module.css";
import { cx } from "./cx";
import { FileButton } from "./FileButton";
import styles from "./Loader.module.css";

/** The pages' "Open files…" button. */
export function OpenFilesButton({ onFiles, primary }: { onFiles(files: File[]): void; primary?: boolean }) {
  return (
    <FileButton
      onFiles={onFiles}
      label="Open files…"
      testId="file-input"
      className={primary ? "button-primary" : "button"}
    />
  );
}

/**
 * A folder picker behind a button (`webkitdirectory`): every file of the folder, with its path relative to
 * it; the page gives each file a role.
 */
export function OpenFolderButton({
  onFolder,
  primary,
}: {
  onFolder(folder: PickedFolder): void;
  primary?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // Not in React's attribute types; the property reflects to the attribute the picker reads.
    if (input.current) input.current.webkitdirectory = true;
  }, []);
  return (
    <>
      <button
        type="button"
        className={primary ? "button-primary" : "button"}
        onClick={() => input.current?.click()}
      >
        Open folder…
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="folder-input"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = "";
          if (files.length > 0) onFolder(folderFromInput(files));
        }}
      />
    </>
  );
}

/** The whole page accepts dropped files and folders; an overlay says so while dragging. */
export function DropTarget({
  onFiles,
  onFolder,
  children,
}: {
  onFiles(files: File[]): void;
  /** Where dropped folders go (pages without folders take only files). */
  onFolder?: (folder: PickedFolder) => void;
  children: ReactNode;
}) {
  const [over, setOver] = useState(false);
  const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes("Files");
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer gesture; the file input is the keyboard path.
    <div
      className={styles.dropTarget}
      data-testid="drop-target"
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "copy";
        setOver(true);
      }}
      onDragLeave={(event) => {
        if (event.currentTarget.contains(event.relatedTarget instanceof Node ? event.relatedTarget : null))
          return;
        setOver(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        // A dropped folder is read recursively (its entries must be taken during the event).
        const folder = onFolder === undefined ? null : folderFromDrop(event.dataTransfer);
        if (folder !== null && onFolder !== undefined) {
          void folder.then(onFolder);
          return;
        }
        const files = [...event.dataTransfer.files];
        if (files.length > 0) onFiles(files);
      }}
    >
      {children}
      {over && (
        <div className={styles.dropOverlay}>
          <div>
            Drop rollouts (.jsonl, .jsonl.gz) and, optionally, their materialized inputs, or a Gym run folder
          </div>
        </div>
      )}
    </div>
  );
}

export function LoadProgressBar({ progress, onCancel }: { progress: LoadProgress | null; onCancel(): void }) {
  const fraction = progress?.total ? Math.min(1, progress.done / progress.total) : null;
  const text = !progress
    ? "starting…"
    : progress.phase === "reading"
      ? `reading ${progress.file}: ${formatBytes(progress.done)}${progress.total ? ` of ${formatBytes(progress.total)}` : ""}, ${formatCount(progress.rows)} lines`
      : `checking ${progress.file}: ${formatCount(progress.done)} of ${formatCount(progress.total ?? 0)} rollouts`;
  return (
    <div className={styles.progress} role="status" data-testid="load-progress">
      <progress max={1} value={fraction ?? undefined} aria-label="Loading" />
      <span className={styles.progressText}>{text}</span>
      <button type="button" className="button-small" onClick={onCancel}>
        cancel
      </button>
    </div>
  );
}

interface WelcomeProps {
  samples: SamplesList;
  onFiles(files: File[]): void;
  onFolder(folder: PickedFolder): void;
  onSample(sample: Sample): void;
  /** Files kept in this browser from earlier visits. */
  recent: readonly RecentFile[];
  onRecent(id: string): void;
}

export function Welcome({ samples, onFiles, onFolder, onSample, recent, onRecent }: WelcomeProps) {
  const rollouts =
    samples.status === "ready" ? samples.samples.filter((sample) => sample.kind === "rollouts") : [];
  return (
    <div className={styles.welcome} data-testid="welcome">
      <div className={styles.welcomeDrop}>
        <h2>Drop a rollouts file here</h2>
        <p>
          NeMo Gym rollouts (<code>.jsonl</code> or <code>.jsonl.gz</code>), optionally with the materialized
          inputs file they were run from, or a whole Gym run or example folder (rollouts, task rows,{" "}
          <code>configs/*.yaml</code>, Gym&apos;s metrics): each file gets a role, and the configs route every
          line to its verifying server. Everything stays in this browser tab: files are parsed in a worker and
          never uploaded.
        </p>
        <div className={styles.welcomeButtons}>
          <OpenFilesButton onFiles={onFiles} primary />
          <OpenFolderButton onFolder={onFolder} primary />
        </div>
        <div className={styles.legend}>
          <span className={cx(badges.badge, badges.tone_none)}>canonical · bare · legacy · non_mcp</span>
          <span className={cx(badges.badge, badges.tone_ambiguous)}>ambiguous</span>
          <span className={cx(badges.badge, badges.tone_mismatched)}>mismatched</span>
          <span className={cx(badges.badge, badges.tone_external)}>external</span>
        </div>
        <div className={styles.welcomeNotes}>
          <div>
            Every tool call shows the alias the harness emitted, its provenance identity (server / tool) and
            the name the verifier sees, under the contract policy and under Gym's legacy behaviour.
          </div>
          <div>
            Rewards are recomputed here, in the browser, by the project's verifiers. Keys: <kbd>j</kbd>/
            <kbd>k</kbd> rollouts, <kbd>n</kbd>/<kbd>p</kbd> calls, <kbd>/</kbd> search.
          </div>
        </div>
      </div>
      {recent.length > 0 && (
        <div className={styles.samples} data-testid="recent-files">
          <h3>Recent files</h3>
          <ul>
            {recent.map((file) => (
              <li key={file.id}>
                <button
                  type="button"
                  className={styles.sample}
                  data-recent={file.name}
                  onClick={() => onRecent(file.id)}
                >
                  <span className={styles.sampleTitle}>{file.name}</span>
                  <span className="mono muted"> {formatBytes(file.bytes)}</span>
                  <span className={styles.sampleDescription}>
                    opened {new Date(file.opened).toLocaleString("en-US")}, kept in this browser
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {samples.status === "pending" && (
        <div className={styles.samples} data-testid="samples-pending">
          <h3>Or open a bundled sample</h3>
          <p className="muted">Listing the bundled samples…</p>
        </div>
      )}
      {samples.status === "error" && (
        <div className={styles.samples} data-testid="samples-error">
          <h3>Bundled samples</h3>
          <p className="muted">The bundled samples could not be listed: {samples.error}.</p>
        </div>
      )}
      {rollouts.length > 0 && (
        <div className={styles.samples}>
          <h3>Or open a bundled sample</h3>
          <ul>
            {rollouts.map((sample) => (
              <li key={sample.file}>
                <button
                  type="button"
                  className={styles.sample}
                  data-sample={sample.file}
                  onClick={() => onSample(sample)}
                >
                  <span className={styles.sampleTitle}>{sample.title}</span>
                  {sample.server && <span className="mono muted"> {sample.server}</span>}
                  <span className={styles.sampleDescription}>{sample.description}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
