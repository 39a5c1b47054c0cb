/** Runs of characters outside [A-Za-z0-9] collapse into this one separator for the near-miss comparison. */
const NEAR_MISS_SEPARATOR = "_";
const NON_ALNUM_RUN = /[^a-z0-9]+/g;

/**
 * The comparison key for `server_near_miss`: case-folded, every run of characters outside [A-Za-z0-9]
 * turned into one separator, so `team-store`, `Team Store` and `team__store` share a key.
 */
export function nearMissKey(server: string): string {
  return server.toLowerCase().replace(NON_ALNUM_RUN, NEAR_MISS_SEPARATOR);
}

/** True when `a` and `b` differ byte for byte but agree after case-folding and separator collapsing. */
export function isServerNearMiss(a: string, b: string): boolean {
  return a !== b && nearMissKey(a) === nearMissKey(b);
}

/** Gym's legacy fallback prefix for server S: the Claude Code form `mcp__<S>__`. */
export function legacyPrefix(server: string): string {
  return `mcp__${server}__`;
}
