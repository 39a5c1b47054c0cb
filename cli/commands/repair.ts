/**
 * `repair FILE --harness H --server S [--tools a,b,...] [--server S2 [--tools ...]]... [--out OUT]`: derive provenance from an
 * exact alias map and write the repaired JSONL losslessly; the summary goes to stderr.
 */
import { parseArgs } from "node:util";
import { readSourceLines } from "../../lib/export";
import { emptyRepairSummary, formatRepairSummary, repairJsonl } from "../../lib/export/repair";
import { HARNESSES, isHarnessId } from "../../lib/harness";
import type { RepairServer } from "../../lib/repair";
import { knownTools } from "../../lib/verify";
import { answerUsage, splitTools, tryParse } from "../args";
import { reportError } from "../errors";
import type { CommandIo } from "../io";
import { namingFile, openFileStream } from "../open";
import { writeOutput } from "../output";

const HELP = `usage: npm run --silent cli -- repair FILE --harness H --server S [--tools a,b,...] [--server S2 [--tools ...]]... [--out OUT]

Derives mcp_tool_call_provenance for historical rollouts (those without a provenance map) from the
exact alias map of harness H over the given MCP servers and their tools. A call is attributed only
when its emitted name is the alias of exactly one (server, tool); collisions, unknown names and calls
without a unique call_id stay out and are listed. Every repaired line also gets
mcp_tool_call_provenance_derived (harness, servers, derived_call_ids, unresolved), so the derivation
is never mistaken for recorded provenance. Rollouts that already have a map are left unchanged.

The output is lossless: untouched lines are written byte for byte, repaired lines only gain those two
keys (key order, unknown keys and number formats kept).

options:
  --harness H    ${HARNESSES.join(" | ")}
  --server S     an MCP server the run had, in configuration order; repeatable
  --tools LIST   comma-separated tools of the preceding --server (default: the tools the
                 verifier registry knows for that server)
  --out OUT      write the repaired JSONL to OUT (default: stdout)
               (stdout is text: use --out for byte-exact output of lines with invalid UTF-8)
  -h, --help     this help
`;

export type ParsedRepairArgs =
  | { ok: true; help: true }
  | {
      ok: true;
      help: false;
      file: string;
      harness: (typeof HARNESSES)[number];
      servers: RepairServer[];
      out?: string;
    }
  | { ok: false; error: string };

const OPTIONS = {
  harness: { type: "string" },
  server: { type: "string", multiple: true },
  tools: { type: "string", multiple: true },
  out: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function parseRepairTokens(args: string[]) {
  return parseArgs({ args, options: OPTIONS, allowPositionals: true, tokens: true });
}

export function parseRepairArgs(args: string[]): ParsedRepairArgs {
  const tried = tryParse(() => parseRepairTokens(args));
  if (!tried.ok) return tried;
  const parsed = tried.value;
  if (parsed.values.help) return { ok: true, help: true };
  const [file, ...extra] = parsed.positionals;
  if (file === undefined) return { ok: false, error: "missing FILE" };
  if (extra.length > 0) return { ok: false, error: `unexpected argument '${extra[0]}'` };
  const harness = parsed.values.harness;
  if (harness === undefined)
    return { ok: false, error: `missing --harness (one of ${HARNESSES.join(", ")})` };
  if (!isHarnessId(harness))
    return { ok: false, error: `unknown harness '${harness}' (one of ${HARNESSES.join(", ")})` };

  // --tools belongs to the --server before it, so walk the tokens in order.
  const entries: { name: string; tools?: string[] }[] = [];
  for (const token of parsed.tokens) {
    if (token.kind !== "option" || token.value === undefined) continue;
    if (token.name === "server") entries.push({ name: token.value });
    else if (token.name === "tools") {
      const last = entries.at(-1);
      if (last === undefined) return { ok: false, error: "--tools must follow the --server it belongs to" };
      if (last.tools !== undefined)
        return { ok: false, error: `--tools given twice for server '${last.name}'` };
      last.tools = splitTools(token.value);
    }
  }
  if (entries.length === 0) return { ok: false, error: "missing --server (the MCP server the run had)" };
  const servers: RepairServer[] = [];
  for (const e of entries) {
    const tools = e.tools ?? knownTools(e.name);
    if (tools === undefined || tools.length === 0) {
      return { ok: false, error: `no known tools for server '${e.name}'; pass --tools a,b,... after it` };
    }
    servers.push({ name: e.name, tools: [...tools] });
  }
  const out = parsed.values.out;
  return { ok: true, help: false, file, harness, servers, ...(out === undefined ? {} : { out }) };
}

export async function run(args: string[], io: CommandIo): Promise<number> {
  const parsed = parseRepairArgs(args);
  if (!parsed.ok || parsed.help) return answerUsage(parsed, HELP, io);
  const { file, harness, servers, out } = parsed;
  try {
    const source = await openFileStream(file);
    const summary = emptyRepairSummary(harness, { keepDetails: false });
    await writeOutput(out, [file], io, source, async (output) => {
      const lines = namingFile(file, readSourceLines(source));
      for await (const written of repairJsonl(lines, { harness, servers }, summary))
        await output.write(written.bytes);
    });
    await io.stderr.write(formatRepairSummary(summary));
    return 0;
  } catch (error) {
    return reportError(error, io);
  }
}
