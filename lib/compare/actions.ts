/**
 * The canonical action sequence of a rollout: what each function_call did, independent of how the
 * harness spelled the tool's name, so runs over different transports can be compared action by action.
 *
 * This is for comparison and display only; it never feeds a verifier. A call's tool is, in order of
 * evidence: its valid provenance entry; the legacy `mcp__<S>__` prefix; the emitted name itself when
 * it is a tool of S; the one tool of S whose alias under some known harness equals the emitted name
 * (exact alias tables, unique match only); otherwise the emitted name, attributed to no server.
 */
import { aliasFor, HARNESSES } from "../harness";
import { legacyPrefix, resolveRollout } from "../identity";
import type { CallStatus } from "../identity/types";
import { canonicalJson, parsePythonJson } from "../jsonl";
import { functionCalls, type Rollout } from "../schemas";

export type NamedBy = "provenance" | "legacy_prefix" | "tool_name" | "alias_match" | "emitted";

export interface Action {
  /** 0-based position among the rollout's function_calls. */
  readonly index: number;
  /** The server the call is attributed to; null when the name matches no tool of S and has no provenance. */
  readonly server: string | null;
  readonly tool: string;
  readonly emitted: string;
  readonly call_id: string | null;
  /** Status under the policy the actions were resolved with (contract unless compareRuns says otherwise). */
  readonly status: CallStatus;
  /** The name the verifier sees for this call under that policy. */
  readonly verifier_name: string;
  readonly named_by: NamedBy;
  /** Parsed arguments (Python-lenient JSON); the raw text when it does not parse. */
  readonly arguments: unknown;
  readonly arguments_valid: boolean;
  /** Equality key: server, tool and structurally normalized arguments. */
  readonly key: string;
}

function parseArguments(raw: unknown): { value: unknown; valid: boolean } {
  if (typeof raw !== "string") return { value: raw ?? null, valid: raw !== undefined };
  const parsed = parsePythonJson(raw);
  return parsed.ok ? { value: parsed.value, valid: true } : { value: raw, valid: false };
}

/** alias -> tools of S it names, over every known harness (single-server configuration). */
export function aliasIndex(server: string, tools: readonly string[]): Map<string, Set<string>> {
  const index = new Map<string, Set<string>>();
  for (const harness of HARNESSES) {
    for (const tool of tools) {
      const alias = aliasFor(harness, server, tool);
      const set = index.get(alias) ?? new Set<string>();
      set.add(tool);
      index.set(alias, set);
    }
  }
  return index;
}

export interface ActionOptions {
  readonly server: string;
  readonly tools: readonly string[];
  /** Reuse across rollouts of one run (aliasIndex(server, tools)). */
  readonly aliases?: Map<string, Set<string>>;
}

/** The rollout's calls as actions of S (or of another server, or unattributed), in call order. */
export function actionsOf(rollout: Rollout, options: ActionOptions): Action[] {
  const { server, tools } = options;
  const aliases = options.aliases ?? aliasIndex(server, tools);
  const toolSet = new Set(tools);
  const resolution = resolveRollout(rollout, { server, policy: "contract", tools });
  const calls = functionCalls(rollout);
  const prefix = legacyPrefix(server);
  const actions = resolution.calls.map((c, i): Action => {
    const args = parseArguments(calls[i]?.call.arguments);
    let attributed: { server: string | null; tool: string; named_by: NamedBy };
    if (c.provenance !== null && (c.status === "canonical" || c.status === "external")) {
      attributed = { server: c.provenance.server_name, tool: c.provenance.tool_name, named_by: "provenance" };
    } else if (c.emitted.startsWith(prefix) && c.emitted.length > prefix.length) {
      attributed = { server, tool: c.emitted.slice(prefix.length), named_by: "legacy_prefix" };
    } else if (toolSet.has(c.emitted)) {
      attributed = { server, tool: c.emitted, named_by: "tool_name" };
    } else {
      const matches = aliases.get(c.emitted);
      const [only] = matches?.size === 1 ? [...matches] : [];
      attributed =
        only === undefined
          ? { server: null, tool: c.emitted, named_by: "emitted" }
          : { server, tool: only, named_by: "alias_match" };
    }
    return {
      index: c.index,
      ...attributed,
      emitted: c.emitted,
      call_id: c.call_id,
      status: c.status,
      verifier_name: c.verifier_name,
      arguments: args.value,
      arguments_valid: args.valid,
      key: canonicalJson([
        attributed.server,
        attributed.tool,
        args.valid ? args.value : { unparsed: args.value },
      ]),
    };
  });
  return actions;
}
