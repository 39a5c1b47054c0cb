"use client";
import { type RefObject, useEffect, useMemo, useRef, useState } from "react";
import { useHighlight } from "@/hooks/data";
import type { Token } from "@/hooks/types";
import styles from "./CodeBlock.module.css";
import { cx } from "./cx";

/** Longest text pretty-printed before highlighting; beyond it the text is shown as it came. */
export const PRETTY_PRINT_MAX_CHARS = 100_000;

/** Pretty-prints JSON text when it is JSON; otherwise returns it unchanged (and says so). */
export function prettyJson(text: string): { text: string; json: boolean } {
  if (text.length > PRETTY_PRINT_MAX_CHARS) return { text, json: false };
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), json: true };
  } catch {
    return { text, json: false };
  }
}

const FONT_STYLE_ITALIC = 1;
const FONT_STYLE_BOLD = 2;

function TokenSpan({ token }: { token: Token }) {
  // Colours come from shiki's themes, never from the data; content is a React text node.
  const style: Record<string, string> = {};
  if (token.light) style["--tok-light"] = token.light;
  if (token.dark) style["--tok-dark"] = token.dark;
  const className = cx(
    styles.tok,
    (token.fontStyle & FONT_STYLE_ITALIC) !== 0 && styles.tokI,
    (token.fontStyle & FONT_STYLE_BOLD) !== 0 && styles.tokB,
  );
  return (
    <span className={className} style={style}>
      {token.content}
    </span>
  );
}

/** Starts true once the element has come near the viewport; highlighting waits for it. */
function useSeen(ref: RefObject<Element | null>): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin: "400px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen]);
  return seen;
}

/**
 * Model-generated JSON, highlighted by shiki's tokenizer in the worker and rendered as text spans. A block
 * is highlighted only once it scrolls near the viewport, so a long transcript costs one render up front.
 */
export function CodeBlock({ text, label }: { text: string; label?: string }) {
  const pretty = useMemo(() => prettyJson(text), [text]);
  const ref = useRef<HTMLPreElement>(null);
  const seen = useSeen(ref);
  const { data } = useHighlight(pretty.json && seen ? pretty.text : null);
  return (
    <pre
      className={styles.code}
      ref={ref}
      data-label={label}
      data-json={pretty.json}
      data-highlighted={Boolean(data)}
    >
      {data && !data.plain ? (
        data.lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of one immutable text.
          <span className="code-line" key={index}>
            {line.map((token, at) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one immutable line.
              <TokenSpan key={at} token={token} />
            ))}
            {"\n"}
          </span>
        ))
      ) : (
        <code>{pretty.text}</code>
      )}
    </pre>
  );
}
