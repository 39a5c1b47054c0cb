"use client";
import { useRef } from "react";

/** What the pages' file pickers offer: rollouts and task rows (plain or gzip), and a folder's Gym configs. */
export const ACCEPTED_FILES = ".jsonl,.gz,.json,.yaml,.yml,application/x-ndjson,application/gzip";

/**
 * A file input behind a button: the browser's own control would say "No file chosen" beside a file the page
 * already shows (one a link named). The input is cleared after each pick, so picking the same file again reads
 * it again.
 */
export function FileButton({
  onFiles,
  label,
  testId,
  className = "button",
  multiple = true,
  accept = ACCEPTED_FILES,
  title,
}: {
  onFiles(files: File[]): void;
  label: string;
  testId: string;
  className?: string;
  multiple?: boolean;
  accept?: string;
  title?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className={className} title={title} onClick={() => input.current?.click()}>
        {label}
      </button>
      <input
        ref={input}
        type="file"
        multiple={multiple}
        accept={accept}
        hidden
        data-testid={testId}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
