"use client";
import { useEffect, useState } from "react";
import styles from "./FontWarmup.module.css";

/**
 * Every (family, size, weight, style) the pages' CSS uses. The first text laid out in one of them costs the
 * renderer a font lookup per family of the stack it does not have (`--font-mono` names five that Linux
 * lacks before Liberation Mono), each a round trip to the browser process: a traced 2x-throttled drop of
 * the 100 MB file spent 15-20 ms of each of its first layouts there, the workspace's, the list's and the
 * first rollout's (bench/main-thread.md).
 */
const FAMILIES = ["var(--font-ui)", "var(--font-mono)"] as const;
const SIZES = [9, 10, 10.5, 11, 11.5, 12, 12.5, 13, 15, 16, 18, 20] as const;
const FACES = [
  { weight: 400, style: "normal" },
  { weight: 600, style: "normal" },
  { weight: 700, style: "normal" },
  { weight: 400, style: "italic" },
  { weight: 700, style: "italic" },
] as const;
const VARIANTS = FAMILIES.flatMap((family) =>
  SIZES.flatMap((size) =>
    FACES.map((face) => ({
      fontFamily: family,
      fontSize: size,
      fontWeight: face.weight,
      fontStyle: face.style,
    })),
  ),
);
/** Variants laid out per idle period: each one's lookups take 1-7 ms (more on a loaded machine). */
const PER_IDLE = 8;
/** Text with the symbols the pages show (arrows, ellipsis, dashes), so their glyphs are found too. */
const SAMPLE = "Aa0 …↑↓·—";

/**
 * Lays out a line of text in each of the pages' fonts while the page is idle after it loads, so that the
 * first layouts after a file is opened find them in the renderer's font cache instead of looking them up
 * inside a long task. The lines stay (hidden, out of the accessibility tree): the cache may drop the data of
 * fonts no text uses.
 */
export function FontWarmup() {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown >= VARIANTS.length) return;
    const next = () => setShown((count) => Math.min(VARIANTS.length, count + PER_IDLE));
    if (typeof requestIdleCallback === "undefined") {
      const timer = setTimeout(next, 50);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(next, { timeout: 2_000 });
    return () => cancelIdleCallback(handle);
  }, [shown]);
  return (
    <div className={styles.warmup} aria-hidden="true" data-testid="font-warmup" data-shown={shown}>
      {VARIANTS.slice(0, shown).map((variant) => (
        <span
          key={`${variant.fontFamily} ${variant.fontSize} ${variant.fontWeight} ${variant.fontStyle}`}
          style={variant}
        >
          {SAMPLE}
        </span>
      ))}
    </div>
  );
}
