/**
 * Gemini CLI v0.34+ (era G3, docs/harness-aliases.md section 5): generateValidName(server + "_" + tool).
 * Keeps `.`, `:` and `-` (legal on Gemini only), replaces the rest per UTF-16 unit, and shortens names
 * over 63 to first 30 + "..." + last 30, with no hash.
 */
import { type AliasRule, lastWins, providerWarnings } from "./rule";
import type { AliasWarning, ToolIdentity } from "./types";

/** Gemini CLI's own cap ("some environments have off-by-one behaviors"). */
export const GEMINI_MAX_NAME_LENGTH = 63;
/** Characters kept from each end when a name is shortened. */
export const GEMINI_KEEP_EACH_END = 30;
const PREFIX = "mcp_";

export function geminiValidName(name: string): string {
  let n = name.startsWith(PREFIX) ? name : PREFIX + name;
  // No `u` flag on purpose: one astral character becomes two `_`.
  n = n.replace(/[^a-zA-Z0-9_\-.:]/g, "_");
  if (/^[^a-zA-Z_]/.test(n)) n = `_${n}`; // unreachable since mcp_ is forced; kept to mirror the source
  if (n.length > GEMINI_MAX_NAME_LENGTH) {
    n = `${n.slice(0, GEMINI_KEEP_EACH_END)}...${n.slice(-GEMINI_KEEP_EACH_END)}`;
  }
  return n;
}

export function geminiCliAlias(server: string, tool: string): string {
  return geminiValidName(`${server}_${tool}`);
}

export const geminiCli: AliasRule = {
  id: "gemini-cli",
  label: "Gemini CLI (v0.34+)",
  pattern: "mcp_{server}_{tool}, [^a-zA-Z0-9_.:-] -> _ per UTF-16 unit, over 63: first 30 + ... + last 30",
  collisionPolicy:
    "Gemini CLI's registry overwrites an earlier tool of the same name (last wins); servers are discovered concurrently, so across servers the survivor is not deterministic (shown here in configuration order).",
  collisionKey: (alias) => alias,
  name: geminiCliAlias,
  assign(identities: readonly ToolIdentity[]) {
    const produced = identities.map((x) => geminiCliAlias(x.server, x.tool));
    const final = lastWins(produced);
    const warnings: AliasWarning[] = providerWarnings(identities, final, "Gemini CLI");
    identities.forEach((x, i) => {
      const full = `${x.server}_${x.tool}`;
      if ((full.startsWith(PREFIX) ? full : PREFIX + full).length > GEMINI_MAX_NAME_LENGTH) {
        warnings.push({
          identities: [x],
          message: `Gemini CLI shortens the name of (${JSON.stringify(x.server)}, ${JSON.stringify(x.tool)}) to ${JSON.stringify(produced[i])} without a hash.`,
        });
      }
    });
    return { produced, final, warnings };
  },
};
