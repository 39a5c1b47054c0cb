/**
 * A self-contained stand-in for a Gym resources server with MCP exposure, for tests only (Node: node:http,
 * node:crypto). It follows Gym's wire contract as the real workplace_assistant server showed it
 * (mcp_auto_exposure.py, observed on shared/gym-server): `/seed_session` sets a session cookie and returns
 * the `mcp` block with a signed `X-NeMo-Gym-Session-Token`; `POST /<tool>` answers `{"output": ...}` in the
 * cookie's session (400 when the session was never seeded); `/mcp` is the MCP SDK's own Streamable HTTP
 * server transport, in one of three modes; tools/call reads the token, answers an unknown tool with an
 * isError text, and returns the same JSON text the HTTP route returns; `/verify` scores with this project's
 * workplace_assistant verifier; `GET /openapi.json` lists the routes like FastAPI does.
 * The tools are this project's port of workplace_assistant (lib/verifiers/workplace_assistant), advertised
 * with the schemas the real server listed (fixtures/gym-live/tools-list.json).
 * Knobs make it do what the real server will not do on demand (a route missing from MCP, a schema
 * difference, paging, a deliberate output difference, a /verify disagreement, a dropped session, a slow
 * tool, a call that never answers, a kill).
 */
import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  isInitializeRequest,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { workplaceAssistantVerifier } from "../verifiers/workplace_assistant";
import { isDict, loadsArguments, PyException, pyRepr } from "../verifiers/workplace_assistant/py";
import { freshState } from "../verifiers/workplace_assistant/replay";
import { TOOLS_BY_NAME, type WorkplaceState } from "../verifiers/workplace_assistant/tools";

/** sse: stateful, replies as event streams; json: stateful, JSON replies; stateless: Gym's own mode. */
export type FakeMode = "sse" | "json" | "stateless";

export interface FakeGymOptions {
  readonly mode: FakeMode;
  /** tools/list page size (default: all in one page). */
  readonly pageSize?: number;
  /** Explicit HTTP routes (name -> input schema) that MCP does not list. */
  readonly httpOnlyRoutes?: Readonly<Record<string, unknown>>;
  /** Explicit HTTP routes for MCP tools, declared with this input schema instead of the MCP one. */
  readonly httpSchemaOverrides?: Readonly<Record<string, unknown>>;
  /** Tools whose MCP answer text differs from the HTTP body (a trailing space). */
  readonly tamperMcpOutput?: readonly string[];
  /** /verify answers this reward instead of the verifier's. */
  readonly verifyReward?: number;
  /** /verify refuses every request with this HTTP status (a server whose request model this project's is not). */
  readonly verifyStatus?: number;
  /** Milliseconds a tool waits before answering (both doors). */
  readonly delays?: Readonly<Record<string, number>>;
  /** Tools that never answer (both doors) until the server is killed. */
  readonly hang?: readonly string[];
}

export interface FakeGym {
  readonly url: string;
  /** Forgets every MCP session (a restart the client did not see). */
  dropSessions(): void;
  /** Tool calls currently waiting in a hanging tool, plus requests held by stall(). */
  readonly hanging: () => number;
  /**
   * From now on every request is accepted and never answered, as by a server stuck in a blocking write
   * (how Gym's own server stalled when nobody read its log pipe).
   */
  stall(): void;
  /** Ends every connection at once, mid-reply included, and stops listening. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

const TOKEN_HEADER = "x-nemo-gym-session-token";
const COOKIE_NAME = "WorkbenchResourcesServer___workplace_assistant";
const SECRET = "fake-gym-secret";
const RESERVED = ["seed_session", "verify", "aggregate_metrics"];

const toolSchema = z.array(
  z.looseObject({ name: z.string(), description: z.string().optional(), inputSchema: z.looseObject({}) }),
);

let cachedTools: Tool[] | null = null;

/** The 27 tools as the real server listed them. */
export function realToolList(): Tool[] {
  if (cachedTools === null) {
    const text = readFileSync(new URL("../../fixtures/gym-live/tools-list.json", import.meta.url), "utf8");
    cachedTools = toolSchema.parse(JSON.parse(text)).map((t) => ({
      name: t.name,
      ...(t.description === undefined ? {} : { description: t.description }),
      inputSchema: { ...t.inputSchema, type: "object" as const },
    }));
  }
  return cachedTools;
}

function b64url(data: string | Buffer): string {
  return Buffer.from(data).toString("base64url");
}

/** itsdangerous URLSafeSerializer's shape: base64url(JSON) "." base64url(HMAC). */
function signToken(claims: { sid: string; tools: string[] | null }): string {
  const payload = b64url(JSON.stringify(claims));
  const signature = createHmac("sha1", SECRET).update(payload).digest("base64url");
  return `${payload}.${signature}`;
}

function readToken(token: string | undefined): { sid: string } | "missing" | "invalid" {
  if (token === undefined || token === "") return "missing";
  const dot = token.lastIndexOf(".");
  const payload = token.slice(0, dot);
  const expected = createHmac("sha1", SECRET).update(payload).digest("base64url");
  if (dot <= 0 || token.slice(dot + 1) !== expected) return "invalid";
  const parsed = z
    .object({ sid: z.string() })
    .safeParse(JSON.parse(Buffer.from(payload, "base64url").toString()));
  return parsed.success ? parsed.data : "invalid";
}

function cookieSid(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie ?? "";
  for (const part of header.split(";")) {
    const [k, v] = part.trim().split("=");
    if (k === COOKIE_NAME) return v;
  }
  return undefined;
}

/** Gym's route: `function(**args)` with None values dropped; an exception becomes the output text. */
function runTool(state: WorkplaceState, name: string, body: ReadonlyMap<string, unknown>): unknown {
  const tool = TOOLS_BY_NAME.get(name);
  if (tool === undefined) return `Error executing tool '${name}': ${pyRepr(name)}`;
  const args = new Map<string, unknown>(tool.params);
  for (const [key, value] of body) {
    if (value === null) continue;
    if (!args.has(key))
      return `Error executing tool '${name}': ${tool.qualname}() got an unexpected keyword argument '${key}'`;
    args.set(key, value);
  }
  try {
    const outcome = tool.run(state, args);
    return outcome.kind === "applied" ? outcome.result : outcome.message;
  } catch (error) {
    if (error instanceof PyException) return `Error executing tool '${name}': ${error.message}`;
    throw error;
  }
}

/** Arguments as Gym's handlers get them: json.loads values (ints as BigInt, dicts as Maps). */
function pyArguments(text: string): Map<string, unknown> | null {
  const parsed = loadsArguments(text);
  return parsed.ok && isDict(parsed.value) ? parsed.value : null;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

const BIGINT_MARK = "\u0000bigint:";

/** JSON as Python's json.dumps writes it compactly; the port's Python ints may be BigInts. */
function dumps(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "bigint") return `${BIGINT_MARK}${v}`;
    if (v instanceof Map) return Object.fromEntries(v);
    return v;
  });
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, "$1");
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = dumps(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export async function startFakeGym(options: FakeGymOptions): Promise<FakeGym> {
  const sessions = new Map<string, WorkplaceState>();
  const mcpSessions = new Map<string, StreamableHTTPServerTransport>();
  const tamper = new Set(options.tamperMcpOutput ?? []);
  const hang = new Set(options.hang ?? []);
  let hanging = 0;
  let stalled = false;
  const tools = realToolList();

  async function execute(sid: string, name: string, args: ReadonlyMap<string, unknown>): Promise<unknown> {
    const delay = options.delays?.[name];
    if (delay !== undefined) await new Promise((r) => setTimeout(r, delay));
    if (hang.has(name)) {
      hanging++;
      await new Promise(() => undefined);
    }
    const state = sessions.get(sid);
    if (state === undefined) throw new Error("no state");
    return { output: runTool(state, name, args) };
  }

  function mcpServer(): Server {
    const server = new Server(
      { name: "workplace_assistant", version: "fake-1" },
      { capabilities: { tools: { listChanged: false } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const size = options.pageSize ?? tools.length;
      const start = Number(request.params?.cursor ?? "0");
      const page = tools.slice(start, start + size);
      const next = start + size < tools.length ? String(start + size) : undefined;
      return { tools: page, ...(next === undefined ? {} : { nextCursor: next }) };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
      const name = request.params.name;
      const error = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });
      if (!tools.some((t) => t.name === name)) {
        const names = tools.map((t) => `'${t.name}'`).sort();
        return error(`Unknown tool: '${name}'. Available tools: [${names.join(", ")}]`);
      }
      const raw = extra.requestInfo?.headers[TOKEN_HEADER];
      const claims = readToken(Array.isArray(raw) ? raw[0] : raw);
      if (claims === "missing") return error("Missing X-NeMo-Gym-Session-Token for Gym MCP tool call.");
      if (claims === "invalid") return error("Invalid Gym MCP session token.");
      if (!sessions.has(claims.sid))
        return error(`HTTP 400 from POST /${name}: Session not initialized. Please call seed_session first.`);
      const args = pyArguments(JSON.stringify(request.params.arguments ?? {}));
      if (args === null) return error(`HTTP 422 from POST /${name}: arguments are not an object`);
      const payload = await execute(claims.sid, name, args);
      const json = dumps(payload);
      const text = json + (tamper.has(name) ? " " : "");
      // Gym maps a dict payload to structuredContent too (plain JSON values here).
      const structured: unknown = JSON.parse(json);
      return {
        content: [{ type: "text", text }],
        ...(isRecord(structured) ? { structuredContent: structured } : {}),
        isError: false,
      };
    });
    return server;
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = req.method === "POST" ? await readBody(req) : "";
    let parsed: unknown;
    try {
      parsed = body === "" ? undefined : JSON.parse(body);
    } catch {
      sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      return;
    }
    if (options.mode === "stateless") {
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      const server = mcpServer();
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, parsed);
      return;
    }
    const raw = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(raw) ? raw[0] : raw;
    let transport = sessionId === undefined ? undefined : mcpSessions.get(sessionId);
    if (transport === undefined) {
      if (sessionId !== undefined) {
        sendJson(res, 404, {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32001, message: "Session not found" },
        });
        return;
      }
      if (req.method !== "POST" || !isInitializeRequest(parsed)) {
        sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "No session id" } });
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: options.mode === "json",
        onsessioninitialized: (id) => {
          mcpSessions.set(id, created);
        },
        onsessionclosed: (id) => {
          mcpSessions.delete(id);
        },
      });
      await mcpServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, parsed);
  }

  function openapi(): unknown {
    const post = (schema: unknown) => ({
      post: { requestBody: { required: true, content: { "application/json": { schema } } }, responses: {} },
    });
    const paths: Record<string, unknown> = {};
    for (const name of RESERVED) paths[`/${name}`] = post({ type: "object" });
    paths["/reverify_mode"] = { get: { responses: {} } };
    const schemas: Record<string, unknown> = {
      WorkbenchRequest: {
        properties: {},
        additionalProperties: true,
        type: "object",
        title: "WorkbenchRequest",
      },
    };
    for (const [name, schema] of Object.entries({
      ...options.httpOnlyRoutes,
      ...options.httpSchemaOverrides,
    })) {
      const ref = `Body_${name}`;
      schemas[ref] = schema;
      paths[`/${name}`] = post({ $ref: `#/components/schemas/${ref}` });
    }
    paths["/{path}"] = post({ $ref: "#/components/schemas/WorkbenchRequest" });
    return { openapi: "3.1.0", info: { title: "FastAPI", version: "0.1.0" }, paths, components: { schemas } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/mcp" || path.startsWith("/mcp/")) return handleMcp(req, res);
    if (req.method === "GET" && path === "/openapi.json") return sendJson(res, 200, openapi());
    if (req.method !== "POST") return sendJson(res, 405, { detail: "Method Not Allowed" });
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text === "" ? {} : JSON.parse(text);
    } catch {
      return sendJson(res, 422, { detail: [{ type: "json_invalid", msg: "JSON decode error" }] });
    }
    if (path === "/seed_session") {
      const sid = cookieSid(req) ?? randomUUID();
      sessions.set(sid, freshState());
      const mcp = {
        server_name: "workplace_assistant",
        url_path: "/mcp",
        transport: "http",
        headers: { "X-NeMo-Gym-Session-Token": signToken({ sid, tools: null }) },
      };
      return sendJson(
        res,
        200,
        { mcp },
        { "set-cookie": `${COOKIE_NAME}=${sid}; path=/; httponly; samesite=lax` },
      );
    }
    if (path === "/verify") {
      if (!isRecord(body)) return sendJson(res, 422, { detail: "expected an object" });
      if (options.verifyStatus !== undefined)
        return sendJson(res, options.verifyStatus, {
          detail: [{ loc: ["body", "response"], msg: "Field required" }],
        });
      const out = workplaceAssistantVerifier.verify(body);
      if (out.error !== undefined) return sendJson(res, 422, { detail: out.error });
      return sendJson(res, 200, { ...body, reward: options.verifyReward ?? out.reward });
    }
    const name = decodeURIComponent(path.slice(1));
    const sid = cookieSid(req);
    if (sid === undefined || !sessions.has(sid))
      return sendJson(res, 400, { detail: "Session not initialized. Please call seed_session first." });
    const args = pyArguments(text === "" ? "{}" : text);
    if (args === null) return sendJson(res, 422, { detail: "expected an object" });
    if (options.httpOnlyRoutes?.[name] !== undefined)
      return sendJson(res, 200, { output: `${name} is HTTP-only` });
    return sendJson(res, 200, await execute(sid, name, args));
  }

  const server: NodeServer = createServer((req, res) => {
    if (stalled) {
      hanging++;
      return;
    }
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { detail: String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const close = () =>
    new Promise<void>((resolve) => {
      for (const t of mcpSessions.values()) void t.close();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    dropSessions() {
      for (const t of mcpSessions.values()) void t.close();
      mcpSessions.clear();
    },
    hanging: () => hanging,
    stall() {
      stalled = true;
    },
    kill: close,
    close,
  };
}
