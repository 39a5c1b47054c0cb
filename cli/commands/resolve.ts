/**
 * `resolve FILE`: the per-call identity of every function_call in a rollouts file, one JSON object per
 * call on stdout, in file order. Streams: one line in memory at a time.
 */

import { type LineKind, readLine, unparsedLine } from "../../lib/folder";
import { HARNESSES, type HarnessId } from "../../lib/harness";
import { resolveRollout } from "../../lib/identity";
import type { CallResolution, Policy } from "../../lib/identity/types";
import { readJsonl } from "../../lib/jsonl";
import { type Lookalikes, type NameFlag, nameFlags } from "../../lib/names";
import type { Rollout } from "../../lib/schemas";
import { knownNamesOf } from "../../lib/verify/known-names";
import { type ConfigRouter, chooseServer } from "../../lib/verify/server";
import { emptyValue, onlyFile, readHarness, readPolicy, scanOptions, splitTools } from "../args";
import { CliError, isReadStopped, reportError } from "../errors";
import { FOLDER_HELP, lineAt, type RoleOverride, readRoleOverrides, type Source, sourcesOf } from "../folder";
import { type CommandIo, lineBatcher } from "../io";
import { namingFile, openFileStream, sayNotRollouts } from "../open";
import { terminalJson } from "../terminal";

export const HELP = `usage: npm run --silent cli -- resolve FILE|DIR [--server S] [--policy contract|legacy] [--harness H] [--tools a,b]

Resolves every function_call of every rollout in FILE (JSONL, optionally gzip) by the call-identity
contract (docs/contract.md) and prints one JSON object per call, in file order:

  {"line", "index", "call_id", "emitted", "status", "verifier_name", "flags", "highlight"}

line is the 1-based line in FILE, index the 0-based position among that rollout's function_calls,
flags the names of the diagnostic flags. A call whose names hide characters (invisible, bidi controls,
mixed scripts, look-alikes, leading/trailing/doubled spaces, or a look-alike of another name the rollout
knows: "confusable") also gets "name_flags", e.g. ["invisible_characters"]. A line that cannot be read (bad JSON, not a rollout, no
verifying server) prints {"line", "error"} instead; the other lines are still resolved.

${FOLDER_HELP}
options:
  --server S        the verifying server; default: each rollout's environment_name, else the only
                    server of its provenance map, else the verifier its declared tools fit
  --policy P        contract (default: follow provenance) or legacy (Gym before provenance)
  --harness H       the harness that produced the file, enables alias_disagrees and alias_collision;
                    one of ${HARNESSES.join(", ")}
  --tools a,b       the verifying server's tool names, enables unknown_tool and alias_guess;
                    default: the tools its verifier knows (lib/verify/registry), if any
  --role PATH=ROLE  a folder file's role (repeatable; see above)
  -h, --help        this text

exit status: 0 when FILE was read (bad lines included), 2 for unusable arguments or an unreadable
FILE, 1 when reading stopped part way (e.g. corrupt gzip data).
`;

interface ResolveArgs {
  readonly file: string;
  readonly roles: readonly RoleOverride[];
  readonly server: string | null;
  readonly policy: Policy;
  readonly harness: HarnessId | null;
  readonly tools: readonly string[] | null;
}

type ParsedArgs = { ok: true; args: ResolveArgs } | { ok: true; help: true } | { ok: false; error: string };

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const scanned = scanOptions(argv, ["--server", "--policy", "--harness", "--tools", "--role"], ["--role"]);
  if (!scanned.ok || scanned.help) return scanned.ok ? { ok: true, help: true } : scanned;
  const { values, files, lists } = scanned;
  const only = onlyFile(files);
  if (!only.ok) return only;
  const roles = readRoleOverrides(lists.get("--role") ?? []);
  if (!roles.ok) return roles;

  const empty = emptyValue(values, ["--server"]);
  if (empty !== null) return empty;
  const server = values.get("--server") ?? null;
  const policy = readPolicy(values.get("--policy"));
  if (!policy.ok) return policy;
  const harness = readHarness(values.get("--harness"));
  if (!harness.ok) return harness;
  const toolsValue = values.get("--tools");
  let tools: string[] | null = null;
  if (toolsValue !== undefined) {
    tools = splitTools(toolsValue);
    if (tools.length === 0) return { ok: false, error: "--tools needs at least one tool name" };
  }
  return {
    ok: true,
    args: {
      file: only.file,
      roles: roles.overrides,
      server,
      policy: policy.policy,
      harness: harness.harness,
      tools,
    },
  };
}

/** lib/names flags of every identifier of the call (emitted name, call_id, provenance server and tool). */
function callNameFlags(call: CallResolution, known: Lookalikes): NameFlag[] {
  const names = [
    call.emitted,
    call.call_id ?? "",
    call.provenance?.server_name ?? "",
    call.provenance?.tool_name ?? "",
  ];
  return [...new Set(names.flatMap((name) => nameFlags(name, known)))];
}

function callRecord(at: { file?: string; line: number }, call: CallResolution, known: Lookalikes): string {
  const names = callNameFlags(call, known);
  return terminalJson({
    ...at,
    index: call.index,
    call_id: call.call_id,
    emitted: call.emitted,
    status: call.status,
    verifier_name: call.verifier_name,
    flags: call.flags.map((flag) => flag.name),
    highlight: call.highlight,
    ...(names.length === 0 ? {} : { name_flags: names }),
  });
}

/** The verifying server of one rollout: the one rule in lib/verify (chooseServer). */
function serverOf(
  rollout: Rollout,
  override: string | null,
  config: ConfigRouter | null,
): string | { error: string } {
  const choice = chooseServer(rollout, { override, config });
  return choice.server ?? { error: `no verifying server: ${choice.reason} Pass --server.` };
}

export async function run(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    await io.stderr.write(`error: resolve: ${parsed.error} (try --help)\n`);
    return 2;
  }
  if ("help" in parsed) {
    await io.stdout.write(HELP);
    return 0;
  }
  const { file, server, policy, harness, tools } = parsed.args;

  let sources: readonly Source[];
  try {
    sources = await sourcesOf(file, parsed.args, io);
  } catch (error) {
    // A missing or unreadable FILE is a usage error (exit 2).
    return reportError(error, io);
  }

  // Loaded only when needed: the registry pulls in every verifier and its data.
  const knownTools = tools === null ? (await import("../../lib/verify/registry")).knownTools : null;

  const stdout = lineBatcher(io.stdout);
  const emit = stdout.line;

  let stopped = false;
  for (const source of sources) {
    const at = (line: number) => lineAt(source, line);
    let readable = 0;
    const kinds = new Set<LineKind>();
    try {
      const stream = await openFileStream(source.path);
      for await (const item of namingFile(source.path, readJsonl(stream))) {
        if (!item.ok) {
          const answer = unparsedLine(item.error, item.text ?? null);
          kinds.add(answer.kind);
          await emit(terminalJson({ ...at(item.line), kind: answer.kind, error: answer.message }));
          continue;
        }
        // A JSON value that is not an object reads "not a rollout: the line is not a JSON object" (lib/schemas).
        const read = readLine(item.value);
        if (!read.ok) {
          kinds.add(read.kind);
          await emit(terminalJson({ ...at(item.line), kind: read.kind, error: read.message }));
          continue;
        }
        readable++;
        const verifying = serverOf(read.rollout, server, source.config);
        if (typeof verifying !== "string") {
          await emit(terminalJson({ ...at(item.line), error: verifying.error }));
          continue;
        }
        const serverTools = tools ?? knownTools?.(verifying);
        const resolution = resolveRollout(read.rollout, {
          server: verifying,
          policy,
          ...(harness === null ? {} : { harness }),
          ...(serverTools === undefined ? {} : { tools: serverTools }),
        });
        const known = knownNamesOf(read.rollout, verifying, serverTools);
        for (const call of resolution.calls) await emit(callRecord(at(item.line), call, known));
      }
    } catch (error) {
      await stdout.flush();
      if (isReadStopped(error)) {
        // A damaged gzip: its calls before the damage are printed; the folder's other files are read, and
        // the command exits 1 once done, as verify and triage do.
        await io.stderr.write(`error: ${error.message}\n`);
        stopped = true;
        continue;
      }
      if (error instanceof CliError) return reportError(error, io);
      await io.stderr.write(
        `error: reading ${source.path} stopped: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 1;
    }
    // One sentence for a file without one rollout (an empty one, a folder's UTF-16 one: the page says it of each).
    if (readable === 0) {
      await stdout.flush();
      await sayNotRollouts(source.path, io, kinds);
    }
  }
  await stdout.flush();
  return stopped ? 1 : 0;
}
