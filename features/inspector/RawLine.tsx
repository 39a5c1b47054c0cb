"use client";
import { memo, useState } from "react";
import code from "@/components/CodeBlock.module.css";
import { cx } from "@/components/cx";
import { formatCount } from "@/lib/run";
import styles from "./RawLine.module.css";

/** Largest raw line shown inline; bigger lines can still be copied or downloaded. */
export const MAX_RAW_DISPLAY_BYTES = 2 * 1024 * 1024;

interface Props {
  byteLength: number;
  fileName: string;
  line: number;
  fetchBytes(): Promise<Uint8Array | null>;
}

const decoder = new TextDecoder();

/** The original line bytes, from the worker: shown as text, copied, or downloaded unchanged. */
export const RawLine = memo(function RawLine({ byteLength, fileName, line, fetchBytes }: Props) {
  const [text, setText] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const show = async () => {
    if (text !== null) {
      setText(null);
      return;
    }
    const bytes = await fetchBytes();
    if (bytes) setText(decoder.decode(bytes.subarray(0, MAX_RAW_DISPLAY_BYTES)));
  };
  const copy = async () => {
    const bytes = await fetchBytes();
    if (!bytes) return;
    try {
      await navigator.clipboard.writeText(decoder.decode(bytes));
      setNote("copied");
    } catch {
      setNote("copy refused by the browser");
    }
  };
  const download = async () => {
    const bytes = await fetchBytes();
    if (!bytes) return;
    const url = URL.createObjectURL(new Blob([bytes.slice()], { type: "application/x-ndjson" }));
    const anchor = document.createElement("a");
    anchor.href = url;
    anchor.download = `${fileName.replace(/\.jsonl(\.gz)?$/, "")}-line-${line}.jsonl`;
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  return (
    <div className="raw">
      <div className={styles.rawActions}>
        <button type="button" className="button-small" onClick={show} aria-expanded={text !== null}>
          {text === null ? "raw line" : "hide raw"}
        </button>
        <button type="button" className="button-small" onClick={copy}>
          copy line
        </button>
        <button type="button" className="button-small" onClick={download} data-testid="download-line">
          download
        </button>
        <span className="muted">{formatCount(byteLength)} bytes</span>
        {note && <span className="muted">{note}</span>}
      </div>
      {text !== null && (
        <pre className={cx(code.code, styles.rawText)} data-testid="raw-line">
          {text}
          {byteLength > MAX_RAW_DISPLAY_BYTES
            ? "\n… (truncated for display; copy or download for the full line)"
            : ""}
        </pre>
      )}
    </div>
  );
});
