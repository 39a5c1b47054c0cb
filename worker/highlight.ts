/**
 * JSON syntax highlighting with shiki's own tokenizer, in the worker. Only token text and colours cross
 * to the UI, which renders them as React text nodes: no HTML string is ever produced or injected.
 * The JavaScript regex engine avoids WebAssembly, which a strict CSP would have to allow.
 */
import { createHighlighterCore, type HighlighterCore } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import type { HighlightResult, Token } from "./protocol";

/** Bigger texts are shown as plain lines: tokenizing them would stall the worker for little benefit. */
export const MAX_HIGHLIGHT_CHARS = 200_000;

let highlighter: Promise<HighlighterCore> | null = null;

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [import("shiki/themes/github-light.mjs"), import("shiki/themes/github-dark.mjs")],
    langs: [import("shiki/langs/json.mjs")],
    engine: createJavaScriptRegexEngine(),
  });
  return highlighter;
}

export async function highlightJson(code: string): Promise<HighlightResult> {
  if (code.length > MAX_HIGHLIGHT_CHARS) {
    return {
      plain: true,
      lines: code.split("\n").map((line) => [{ content: line, light: null, dark: null, fontStyle: 0 }]),
    };
  }
  const shiki = await getHighlighter();
  const lines = shiki.codeToTokensWithThemes(code, {
    lang: "json",
    themes: { light: "github-light", dark: "github-dark" },
  });
  return {
    plain: false,
    lines: lines.map((line) =>
      line.map(
        (token): Token => ({
          content: token.content,
          light: token.variants.light?.color ?? null,
          dark: token.variants.dark?.color ?? null,
          fontStyle: token.variants.light?.fontStyle ?? 0,
        }),
      ),
    ),
  };
}
