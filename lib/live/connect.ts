/**
 * Connect and check parity: /seed_session (the mcp block and its token's claims), an MCP session through
 * the SDK client (negotiated protocol version, session id, reply types, DELETE on close), tools/list
 * against the OpenAPI document's tool routes.
 */
import { describeError, type LiveErrorKind } from "./errors";
import { HttpDoor, type McpMetadata, SESSION_TOKEN_HEADER } from "./http";
import { McpDoor, type McpToolInfo, type McpWire } from "./mcp";
import { compareParity, type ParityReport } from "./parity";
import type { LiveTarget } from "./replay";
import { decodeSessionToken, type TokenClaims } from "./token";

export type Step<T> = { ok: true; value: T } | { ok: false; kind: LiveErrorKind; message: string };

export interface ConnectReport {
  readonly baseUrl: string;
  readonly seed: Step<{ mcp: McpMetadata | null }>;
  readonly token: Step<TokenClaims> | null;
  readonly session: Step<{
    protocolVersion: string | null;
    sessionId: string | null;
    server: { name: string; version: string } | null;
  }> | null;
  readonly tools: Step<{ tools: readonly McpToolInfo[]; pages: number }> | null;
  readonly openapi: Step<{ routes: number }> | null;
  readonly parity: Step<ParityReport> | null;
  readonly wire: McpWire | null;
}

async function step<T>(run: () => Promise<T>): Promise<Step<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, ...describeError(error) };
  }
}

export async function connectAndCheck(target: LiveTarget): Promise<ConnectReport> {
  const http = new HttpDoor(target.baseUrl, target);
  const empty = { token: null, session: null, tools: null, openapi: null, parity: null, wire: null };
  const seed = await step(async () => ({ mcp: (await http.seedSession()).mcp }));
  if (!seed.ok || seed.value.mcp === null) return { baseUrl: target.baseUrl, seed, ...empty };
  const mcpMeta = seed.value.mcp;

  const rawToken = Object.entries(mcpMeta.headers).find(
    ([k]) => k.toLowerCase() === SESSION_TOKEN_HEADER.toLowerCase(),
  )?.[1];
  const token: Step<TokenClaims> | null =
    rawToken === undefined
      ? null
      : await decodeSessionToken(rawToken).then((r) =>
          r.ok
            ? { ok: true as const, value: r.value }
            : { ok: false as const, kind: "protocol_error" as const, message: r.error },
        );

  const openapiDoc = await step(() => http.openapi());
  let door: McpDoor | null = null;
  const session = await step(async () => {
    door = await McpDoor.connect(`${target.baseUrl}${mcpMeta.url_path}`, mcpMeta.headers, target);
    return { protocolVersion: door.protocolVersion, sessionId: door.sessionId, server: door.serverInfo };
  });
  const opened: McpDoor | null = door;
  if (opened === null) {
    return { ...empty, baseUrl: target.baseUrl, seed, token, session, openapi: openapiStep(openapiDoc) };
  }
  const mcpDoor: McpDoor = opened;
  const tools = await step(() => mcpDoor.listTools());
  await mcpDoor.close();
  let parity: Step<ParityReport> | null = null;
  if (tools.ok && openapiDoc.ok) {
    const report = compareParity(tools.value.tools, openapiDoc.value);
    parity =
      "error" in report
        ? { ok: false, kind: "protocol_error", message: report.error }
        : { ok: true, value: report };
  }
  return {
    baseUrl: target.baseUrl,
    seed,
    token,
    session,
    tools,
    openapi: openapiStep(openapiDoc),
    parity,
    wire: mcpDoor.wire,
  };
}

function openapiStep(doc: Step<unknown>): Step<{ routes: number }> {
  if (!doc.ok) return doc;
  const paths =
    doc.value !== null && typeof doc.value === "object" && "paths" in doc.value ? doc.value.paths : null;
  return {
    ok: true,
    value: { routes: paths !== null && typeof paths === "object" ? Object.keys(paths).length : 0 },
  };
}
