/**
 * Which harness produced a file, inferred from its emitted names: the harnesses whose alias of some tool of
 * the verifying server equals the most emitted names. It is a suggestion the UI offers, labelled as
 * inferred, and never applied on its own: several harnesses share aliases (Claude Code, Codex and current
 * Hermes all write `mcp__S__T` for plain names), so a tie names them all instead of picking one.
 */
import { aliasFor, HARNESSES } from "./index";
import type { HarnessId } from "./types";

export interface HarnessInference {
  /** Always "inferred": the front ends must show it as such. */
  readonly basis: "inferred";
  /** The harnesses that explain the most aliased names (all of them tied), in HARNESSES order. */
  readonly harnesses: readonly HarnessId[];
  /** Distinct emitted names that are not bare tool names (the only evidence an alias gives). */
  readonly aliased: number;
  /** Of those, how many the chosen harnesses' aliases explain. */
  readonly explained: number;
}

/**
 * Infers the harness from distinct emitted names. null when no name is an alias of any harness (an HTTP
 * run, or tools the server does not have).
 */
export function inferHarness(
  emitted: Iterable<string>,
  server: string,
  tools: readonly string[],
): HarnessInference | null {
  const bare = new Set(tools);
  const names = new Set<string>();
  for (const name of emitted) if (!bare.has(name)) names.add(name);
  if (names.size === 0 || tools.length === 0) return null;
  let best = 0;
  let harnesses: HarnessId[] = [];
  for (const harness of HARNESSES) {
    const aliases = new Set(tools.map((tool) => aliasFor(harness, server, tool)));
    let explained = 0;
    for (const name of names) if (aliases.has(name)) explained++;
    if (explained === 0 || explained < best) continue;
    if (explained > best) {
      best = explained;
      harnesses = [];
    }
    harnesses.push(harness);
  }
  if (best === 0) return null;
  return { basis: "inferred", harnesses, aliased: names.size, explained: best };
}
