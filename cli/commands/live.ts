/**
 * `live URL`: check a running Gym resources server's two doors (lib/live): connect (/seed_session, token
 * claims, MCP negotiation), transport parity (tools/list vs the OpenAPI tool routes), and, given a rollouts
 * file, replay each rollout through both doors and put the server's /verify reward beside this project's.
 */
import type { Policy } from "../../lib/identity/types";
import { readJsonl } from "../../lib/jsonl";
import {
  addToTally,
  CALL_VERDICTS,
  type ConnectReport,
  checkRollout,
  connectAndCheck,
  emptyTally,
  normalizeServerUrl,
  type PolicyTally,
  type RolloutCheck,
  serverStoppedAnswering,
  startServerHint,
  tallyClean,
} from "../../lib/live";
import { readRollout } from "../../lib/schemas";
import { type InputIndex, pairedInput } from "../../lib/verify";
import { scanOptions } from "../args";
import { loadInputIndex } from "../inputs";
import type { CommandIo } from "../io";
import { openFileStream } from "../open";
import { terminalJson, terminalText } from "../terminal";

export const HELP = `usage: npm run --silent cli -- live URL [--rollouts FILE [--inputs M]...] [--policy contract|legacy|both] [--server S] [--timeout-ms N] [--json]

Checks a running NeMo Gym resources server with MCP exposure at URL (e.g. http://127.0.0.1:8765):

  connect   POST /seed_session: the mcp block, the session token's claims (its signature is never
            checked: the secret stays on the server), then an MCP session through the official SDK
            client: negotiated protocol version, session id, reply content types, DELETE on close
  parity    MCP tools/list (every page) against the HTTP tool routes of GET /openapi.json: names and
            input schemas, each difference named
  replay    with --rollouts: each rollout's function_calls, in fresh sessions, through POST /<tool> and
            MCP tools/call under the names the call-identity contract gives them for the policy; each
            output compared byte for byte (errors differ by design: HTTP status + body vs MCP isError)
  verify    with --rollouts: POST /verify with the rollout canonicalized for the policy; the server's
            reward beside this project's

Errors are sorted: tool error, protocol error, transport error, timeout.

options:
  --rollouts FILE   rollouts JSONL (optionally gzip) to replay and verify
  --inputs M        the run's materialized inputs or task rows (repeatable, one index in order): each
                    rollout is paired by (_ng_task_index, _ng_rollout_index), else by an equal
                    responses_create_params.input, and /verify gets the paired row with the rollout's
                    response, as gym eval reverify sends it; an unpaired rollout is sent as it is
  --policy P        contract, legacy or both (default both)
  --server S        the verifying server (default: each rollout's environment_name)
  --timeout-ms N    the deadline of each request (default 30000)
  --json            JSON lines instead of text: {"section": "connect" | "rollout" | "summary", ...}
  -h, --help        this text

exit status: 0 when everything ran and nothing differs; 1 when the server could not be reached, a parity
difference, a differing or failed call, or a reward disagreement was found; 2 for unusable arguments or an
unreadable FILE.
`;

interface LiveArgs {
  readonly url: string;
  readonly rollouts: string | null;
  readonly inputs: readonly string[];
  readonly policies: readonly Policy[];
  readonly server: string | null;
  readonly timeoutMs: number;
  readonly json: boolean;
}

type Parsed = { ok: true; args: LiveArgs } | { ok: true; help: true } | { ok: false; error: string };

export function parseArgs(argv: readonly string[]): Parsed {
  const json = argv.includes("--json");
  const scanned = scanOptions(
    argv.filter((a) => a !== "--json"),
    ["--rollouts", "--inputs", "--policy", "--server", "--timeout-ms"],
    ["--inputs"],
  );
  if (!scanned.ok || scanned.help) return scanned.ok ? { ok: true, help: true } : scanned;
  const [url, ...extra] = scanned.files;
  if (url === undefined) return { ok: false, error: "missing URL" };
  if (extra.length > 0) return { ok: false, error: `expected one URL, got ${scanned.files.length}` };
  const normalized = normalizeServerUrl(url);
  if (!normalized.ok) return { ok: false, error: normalized.error };
  const policy = scanned.values.get("--policy") ?? "both";
  if (policy !== "contract" && policy !== "legacy" && policy !== "both")
    return { ok: false, error: `--policy must be contract, legacy or both, not ${JSON.stringify(policy)}` };
  const timeoutText = scanned.values.get("--timeout-ms") ?? "30000";
  const timeoutMs = Number(timeoutText);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    return {
      ok: false,
      error: `--timeout-ms must be a positive integer, not ${JSON.stringify(timeoutText)}`,
    };
  const rollouts = scanned.values.get("--rollouts") ?? null;
  if (rollouts === "") return { ok: false, error: "--rollouts must not be empty" };
  const server = scanned.values.get("--server") ?? null;
  if (server === "") return { ok: false, error: "--server must not be empty" };
  const inputs = scanned.lists.get("--inputs") ?? [];
  if (inputs.includes("")) return { ok: false, error: "--inputs must not be empty" };
  if (inputs.length > 0 && rollouts === null)
    return { ok: false, error: "--inputs pairs the rollouts of --rollouts FILE, which is missing" };
  return {
    ok: true,
    args: {
      url: normalized.url,
      rollouts,
      inputs,
      policies: policy === "both" ? ["contract", "legacy"] : [policy],
      server,
      timeoutMs,
      json,
    },
  };
}

function fail(step: { ok: false; kind: string; message: string }): string {
  return `FAILED (${step.kind.replace("_", " ")}): ${step.message}`;
}

/** The connect and parity sections as text. */
export function connectText(report: ConnectReport): string {
  const out: string[] = [`connect ${report.baseUrl}`];
  if (!report.seed.ok) return `${out[0]}\n  seed_session: ${fail(report.seed)}\n`;
  const mcp = report.seed.value.mcp;
  if (mcp === null) return `${out[0]}\n  seed_session: ok, but no mcp block: MCP exposure is off\n`;
  out.push(
    `  seed_session: mcp server_name=${terminalText(mcp.server_name)} url_path=${terminalText(mcp.url_path)} transport=${terminalText(mcp.transport)}`,
  );
  if (report.token === null) out.push("  token: none in the mcp headers");
  else if (!report.token.ok) out.push(`  token: cannot read: ${report.token.message}`);
  else {
    const t = report.token.value;
    const tools =
      t.tools === null
        ? "all tools"
        : t.tools === undefined
          ? "no tools claim"
          : t.tools.map((tool) => terminalText(tool)).join(", ");
    out.push(
      `  token claims: sid=${terminalText(t.sid ?? "(none)")} allowed tools=${tools} (signature not checked)`,
    );
  }
  if (report.session !== null) {
    if (!report.session.ok) out.push(`  MCP session: ${fail(report.session)}`);
    else {
      const s = report.session.value;
      const replies = Object.entries(report.wire?.replies ?? {})
        .map(([type, n]) => `${type} x${n}`)
        .join(", ");
      out.push(
        `  MCP session: protocol ${s.protocolVersion ?? "?"}, session id ${s.sessionId ?? "none (stateless)"}, server ${terminalText(s.server?.name ?? "?")} ${terminalText(s.server?.version ?? "")}`.trimEnd(),
      );
      out.push(`  replies: ${replies || "none"}; DELETE on close: ${report.wire?.deleteOnClose ?? "?"}`);
    }
  }
  if (report.openapi !== null && !report.openapi.ok) out.push(`  openapi: ${fail(report.openapi)}`);
  if (report.tools !== null && !report.tools.ok) out.push(`  tools/list: ${fail(report.tools)}`);
  if (report.parity !== null) {
    if (!report.parity.ok) out.push(`parity: ${fail(report.parity)}`);
    else {
      const p = report.parity.value;
      const pages = report.tools?.ok ? report.tools.value.pages : 0;
      out.push(
        `parity: ${p.mcpTools} MCP tools (${pages} page${pages === 1 ? "" : "s"}) vs ${p.httpRoutes} HTTP tool routes` +
          `${p.catchAll === null ? "" : ` + catch-all POST ${p.catchAll}`}: ${p.differences} difference${p.differences === 1 ? "" : "s"}`,
      );
      for (const row of p.rows) for (const d of row.differences) out.push(`  ${d.kind}: ${d.message}`);
      const note = p.rows.find((r) => r.note !== null)?.note;
      if (note)
        out.push(
          `  note: ${p.rows.filter((r) => r.note !== null).length} tools ${note.replace(/^served/, "are served")}`,
        );
    }
  }
  return `${out.join("\n")}\n`;
}

function connectClean(report: ConnectReport): boolean {
  return (
    report.seed.ok &&
    report.seed.value.mcp !== null &&
    report.session?.ok === true &&
    report.parity?.ok === true &&
    report.parity.value.differences === 0
  );
}

function rolloutText(check: RolloutCheck): string {
  const { replay, verify } = check;
  const lines: string[] = [];
  const counts = CALL_VERDICTS.filter((v) => replay.counts[v] > 0)
    .map((v) => `${replay.counts[v]} ${v.replace(/_/g, " ")}`)
    .join(", ");
  const replayText = replay.error === null ? counts || "no calls" : fail({ ok: false, ...replay.error });
  const reward = (r: number | null) => (r === null ? "none" : String(r));
  const verdict =
    verify.verdict === "disagree"
      ? "  DISAGREE"
      : verify.verdict === "refused_as_predicted"
        ? `  (refused, as predicted: ${verify.gymWouldReject.join("; ")})`
        : verify.verdict === "refused"
          ? `  REFUSED by the server (${(verify.serverError ?? "").slice(0, 300)})`
          : verify.verdict === "no_answer"
            ? `  (no answer: ${verify.serverError ?? ""})`
            : "";
  const renormalized =
    verify.verdict === "disagree" && verify.renormalizedByServer.length > 0
      ? `\n  the server strips the mcp__ prefix itself from ${verify.renormalizedByServer.join(", ")}, which the ${check.policy} policy left unresolved`
      : "";
  const verifyText = `browser ${reward(verify.browserReward)} vs server ${reward(verify.serverReward)}${verdict}${verify.serverError === null || verify.verdict !== "disagree" ? "" : ` (server: ${verify.serverError.slice(0, 200)})`}${renormalized}`;
  lines.push(`line ${check.line} [${check.policy}]: replay ${replayText}; verify ${verifyText}`);
  for (const call of replay.calls) {
    if (call.verdict !== "differs" && call.verdict !== "failed") continue;
    const http =
      call.http === null
        ? "-"
        : call.http.ok
          ? `HTTP ${call.http.answer.status} ${call.http.answer.body}`
          : `${call.http.kind}: ${call.http.message}`;
    const mcp =
      call.mcp === null
        ? "-"
        : call.mcp.ok
          ? `MCP isError=${call.mcp.answer.isError} ${call.mcp.answer.text}`
          : `${call.mcp.kind}: ${call.mcp.message}`;
    lines.push(`  call ${call.index} ${terminalText(call.name)}: ${call.verdict}\n    ${http}\n    ${mcp}`);
  }
  return `${lines.join("\n")}\n`;
}

function tallyText(policy: Policy, t: PolicyTally): string {
  const calls = CALL_VERDICTS.map((v) => `${v.replace(/_/g, " ")} ${t.calls[v]}`).join(", ");
  return (
    `summary [${policy}]: ${t.rollouts} rollouts; calls: ${calls}` +
    `${t.replayErrors > 0 ? `; ${t.replayErrors} replays could not start or stopped` : ""}` +
    `; /verify: ${t.serverScored} scored, ${t.verifyAgree} agree, ${t.verifyRefusedAsPredicted} refused as predicted, ` +
    `${t.verifyRefused > 0 ? `${t.verifyRefused} refused (nothing predicted it), ` : ""}` +
    `${t.verifyNoAnswer > 0 ? `${t.verifyNoAnswer} no answer, ` : ""}` +
    `${t.verifyDisagree} disagree (${t.verifyDisagreeRenormalized} where the server strips mcp__ names itself)\n`
  );
}

export async function run(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    await io.stderr.write(`error: live: ${parsed.error} (try --help)\n`);
    return 2;
  }
  if ("help" in parsed) {
    await io.stdout.write(HELP);
    return 0;
  }
  const { url, rollouts, inputs, policies, server, timeoutMs, json } = parsed.args;
  // Opened first so an unreadable FILE or M is a usage error before any network traffic.
  let stream: ReadableStream<Uint8Array> | null = null;
  let inputRows: InputIndex<unknown> | undefined;
  if (rollouts !== null) {
    try {
      for (const path of inputs) inputRows = await loadInputIndex(path, io, inputRows);
      stream = await openFileStream(rollouts);
    } catch (error) {
      await io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
  }
  const target = { baseUrl: url, timeoutMs };
  const started = Date.now();
  const report = await connectAndCheck(target);
  await io.stdout.write(
    json ? `${terminalJson({ section: "connect", ...report })}\n` : terminalText(connectText(report), true),
  );
  let clean = connectClean(report);
  if (!report.seed.ok) {
    // Nothing answered: say how to start a Gym server (lib/live startServerHint, as /live does).
    if (report.seed.kind === "timeout" || report.seed.kind === "transport_error")
      await io.stderr.write(`${startServerHint()}\n`);
    await stream?.cancel();
    return 1;
  }

  if (stream !== null) {
    const tallies = new Map<Policy, PolicyTally>(policies.map((p) => [p, emptyTally()]));
    let unreadable = 0;
    let stopped: { kind: string; message: string } | null = null;
    // A server that stops answering ends the run with one error, instead of a deadline per later check.
    lines: for await (const item of readJsonl(stream)) {
      if (!item.ok) {
        unreadable++;
        await io.stdout.write(
          json
            ? `${terminalJson({ section: "rollout", line: item.line, error: item.error })}\n`
            : `line ${item.line}: unreadable: ${terminalText(item.error)}\n`,
        );
        continue;
      }
      // Parse once at the edge (lib/schemas): a line that is not a rollout is unreadable, never replayed.
      const read = readRollout(item.value);
      if (!read.ok) {
        unreadable++;
        await io.stdout.write(
          json
            ? `${JSON.stringify({ section: "rollout", line: item.line, error: read.message })}\n`
            : `line ${item.line}: unreadable: ${read.message}\n`,
        );
        continue;
      }
      const lineOptions = {
        ...(server === null ? {} : { server }),
        ...pairedInput(inputRows?.pair(read.rollout)),
      };
      for (const policy of policies) {
        const check = await checkRollout(read.rollout, item.line, target, policy, lineOptions);
        addToTally(tallies.get(policy)!, check);
        await io.stdout.write(
          json
            ? `${terminalJson({ section: "rollout", ...check })}\n`
            : terminalText(rolloutText(check), true),
        );
        stopped = serverStoppedAnswering(check);
        if (stopped !== null) break lines;
      }
    }
    if (stopped !== null) {
      clean = false;
      await io.stdout.write(
        json
          ? `${terminalJson({ section: "stopped", ...stopped })}\n`
          : `STOPPED: ${terminalText(stopped.message)}\n`,
      );
    }
    for (const [policy, tally] of tallies) {
      clean &&= tallyClean(tally);
      await io.stdout.write(
        json
          ? `${terminalJson({ section: "summary", policy, ...tally, unreadable })}\n`
          : tallyText(policy, tally),
      );
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  await io.stderr.write(`live: ${clean ? "nothing differs" : "differences found"} (${seconds} s)\n`);
  return clean ? 0 : 1;
}
