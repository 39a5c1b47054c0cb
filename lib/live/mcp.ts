/**
 * Gym's MCP door through the official TypeScript SDK's Streamable HTTP client. The SDK negotiates the
 * protocol version, echoes the session id and protocol version headers, reads JSON or event-stream replies
 * and sends DELETE on close; this wrapper adds one deadline per request, records what the wire showed
 * (reply content types, DELETE answer) and sorts every failure into a LiveErrorKind.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { startDeadline } from "./deadline";
import { LiveError } from "./errors";
import { DEFAULT_TIMEOUT_MS, type FetchLike } from "./fetch";
import type { DoorOptions } from "./http";

export const CLIENT_INFO = { name: "rollout-inspector-live", version: "0.1.0" } as const;

/** Pages of tools/list followed at most; a server that pages forever is a protocol error. */
export const MAX_TOOL_PAGES = 100;

export interface McpToolInfo {
  readonly name: string;
  readonly description: string | null;
  readonly inputSchema: unknown;
}

/** What the MCP door answered to one tools/call: the text of its content and the isError flag. */
export interface McpAnswer {
  readonly isError: boolean;
  /** The text parts of `content`, joined; other parts are named in brackets. */
  readonly text: string;
}

export interface McpWire {
  /** Content types of the replies to POSTs: application/json or text/event-stream. */
  readonly replies: Readonly<Record<string, number>>;
  /** The answer to DELETE on close: HTTP status, "not sent" (no session id), or the failure. */
  deleteOnClose: string | null;
  /** The optional GET stream for server-initiated messages. */
  standaloneStream: string | null;
}

function isAbortLike(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** Sorts what the SDK throws into the four kinds, with a plain message. */
export function classifyMcpError(error: unknown, what: string, timeoutMs: number): LiveError {
  if (error instanceof LiveError) return error;
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout)
      return new LiveError("timeout", `${what}: no answer within ${timeoutMs} ms`);
    if (error.code === ErrorCode.ConnectionClosed)
      return new LiveError("transport_error", `${what}: the connection closed before an answer`);
    return new LiveError("protocol_error", `${what}: JSON-RPC error ${error.code}: ${error.message}`);
  }
  if (error instanceof StreamableHTTPError) {
    const status = typeof error.code === "number" && error.code > 0 ? error.code : undefined;
    // The SDK's code -1: the server answered 2xx with a body that is neither JSON nor an event stream.
    if (status === undefined) return new LiveError("protocol_error", `${what}: ${error.message}`);
    if (status === 404)
      return new LiveError(
        "transport_error",
        `${what}: the server no longer knows this MCP session (HTTP 404): it was dropped; connect again`,
        404,
      );
    return new LiveError("transport_error", `${what}: ${error.message}`, status);
  }
  if (isAbortLike(error)) return new LiveError("timeout", `${what}: no answer within ${timeoutMs} ms`);
  if (error instanceof Error) {
    // The SDK reports malformed replies (bad JSON, wrong shape) as plain Errors or zod errors.
    if (error.name === "ZodError" || /JSON|parse|schema|Unexpected content type/i.test(error.message))
      return new LiveError("protocol_error", `${what}: ${error.message}`);
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return new LiveError("transport_error", `${what}: ${error.message}${cause}`);
  }
  return new LiveError("transport_error", `${what}: ${String(error)}`);
}

function contentText(content: readonly unknown[]): string {
  return content
    .map((part) => {
      if (part !== null && typeof part === "object" && "type" in part) {
        if (part.type === "text" && "text" in part && typeof part.text === "string") return part.text;
        return `[${String(part.type)} content]`;
      }
      return "[unreadable content]";
    })
    .join("");
}

export class McpDoor {
  readonly url: string;
  readonly wire: McpWire;
  private readonly client: Client;
  private readonly transport: StreamableHTTPClientTransport;
  private readonly timeoutMs: number;
  /** Calls in flight, aborted together when the connection under a reply stream breaks. */
  private readonly inFlight = new Set<AbortController>();

  private constructor(url: string, headers: Record<string, string>, options: DoorOptions) {
    this.url = url;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const replies: Record<string, number> = {};
    this.wire = { replies, deleteOnClose: null, standaloneStream: null };
    const base: FetchLike = options.fetch ?? ((u, init) => fetch(u, init));
    const observed: FetchLike = async (u, init) => {
      const method = init?.method ?? "GET";
      // The optional standalone GET stream carries only server-initiated messages, which live mode never
      // needs; a stateless Gym server holds it open, and one held stream per session would exhaust a
      // browser's six connections per host. It is answered here as a server without one would (405).
      if (method === "GET") {
        this.wire.standaloneStream = "not opened (live mode needs no server-initiated messages)";
        return new Response(null, { status: 405 });
      }
      // The SDK gives DELETE no deadline of its own; a server that stopped answering would hold close().
      let response: Response;
      if (method === "DELETE") {
        const deadline = startDeadline(this.timeoutMs, init?.signal);
        try {
          response = await base(u, { ...init, signal: deadline.signal });
        } finally {
          deadline.clear();
        }
      } else response = await base(u, init);
      if (method === "POST" && response.status !== 202) {
        const type = (response.headers.get("content-type") ?? "none").split(";")[0]!.trim();
        replies[type] = (replies[type] ?? 0) + 1;
      }
      if (method === "DELETE") this.wire.deleteOnClose = `HTTP ${response.status}`;
      if (response.status === 202) {
        // The SDK never reads a 202's body; a browser keeps the connection busy until an unread body is
        // collected, which starves its six connections per host. Release it now.
        await response.body?.cancel();
        return new Response(null, {
          status: 202,
          statusText: response.statusText,
          headers: response.headers,
        });
      }
      if (method !== "POST" || response.body === null) return response;
      // A reply stream that breaks part way (server killed, connection reset) fails every call in flight
      // at once with a transport error, instead of leaving them to their deadlines.
      const onBreak = (error: unknown) => this.abortAll(error);
      const guarded = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform: (chunk, controller) => controller.enqueue(chunk),
        }),
      );
      const [forSdk, watch] = guarded.tee();
      void watch.pipeTo(new WritableStream()).catch((error: unknown) => onBreak(error));
      return new Response(forSdk, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
    this.transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: observed,
      requestInit: { headers },
      // A server that offers a standalone GET stream and then drops it is not retried for long.
      reconnectionOptions: {
        initialReconnectionDelay: 500,
        maxReconnectionDelay: 2000,
        reconnectionDelayGrowFactor: 2,
        maxRetries: 1,
      },
    });
    this.client = new Client(CLIENT_INFO, { capabilities: {} });
  }

  private abortAll(error: unknown): void {
    const cause = error instanceof Error ? error.message : String(error);
    for (const controller of this.inFlight)
      controller.abort(new LiveError("transport_error", `the connection broke mid-reply: ${cause}`));
  }

  /** Connects (initialize + initialized) with the session token header Gym's /seed_session handed out. */
  static async connect(
    url: string,
    headers: Record<string, string>,
    options: DoorOptions = {},
  ): Promise<McpDoor> {
    const door = new McpDoor(url, headers, options);
    try {
      await door.client.connect(door.transport, { timeout: door.timeoutMs });
    } catch (error) {
      await door.transport.close().catch(() => undefined);
      throw classifyMcpError(error, "MCP initialize", door.timeoutMs);
    }
    return door;
  }

  get protocolVersion(): string | null {
    return this.transport.protocolVersion ?? null;
  }

  get sessionId(): string | null {
    return this.transport.sessionId ?? null;
  }

  get serverInfo(): { name: string; version: string } | null {
    const info = this.client.getServerVersion();
    return info === undefined ? null : { name: info.name, version: info.version };
  }

  private async withDeadline<T>(what: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      return await run(controller.signal);
    } catch (error) {
      if (controller.signal.aborted && controller.signal.reason instanceof LiveError) {
        const reason: LiveError = controller.signal.reason;
        throw new LiveError(reason.kind, `${what}: ${reason.message}`, reason.status);
      }
      throw classifyMcpError(error, what, this.timeoutMs);
    } finally {
      this.inFlight.delete(controller);
    }
  }

  /** tools/list, following nextCursor; each page has its own deadline. */
  async listTools(): Promise<{ tools: McpToolInfo[]; pages: number }> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      if (pages >= MAX_TOOL_PAGES)
        throw new LiveError("protocol_error", `tools/list: more than ${MAX_TOOL_PAGES} pages`);
      const page = await this.withDeadline("tools/list", (signal) =>
        this.client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.timeoutMs, signal }),
      );
      pages++;
      for (const tool of page.tools)
        tools.push({ name: tool.name, description: tool.description ?? null, inputSchema: tool.inputSchema });
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { tools, pages };
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<McpAnswer> {
    const result = await this.withDeadline(`tools/call ${name}`, (signal) =>
      this.client.callTool({ name, arguments: args }, undefined, { timeout: this.timeoutMs, signal }),
    );
    const content = Array.isArray(result.content) ? result.content : [];
    return { isError: result.isError === true, text: contentText(content) };
  }

  /**
   * DELETE (when the server gave a session id), then close the client. `serverGone`: the server stopped
   * answering, so no DELETE is sent (it would only wait out another deadline).
   */
  async close(options: { serverGone?: boolean } = {}): Promise<void> {
    if (this.transport.sessionId === undefined) this.wire.deleteOnClose = "not sent (no session id)";
    else if (options.serverGone === true) this.wire.deleteOnClose = "not sent (the server stopped answering)";
    else {
      try {
        await this.transport.terminateSession();
      } catch (error) {
        this.wire.deleteOnClose = classifyMcpError(error, "DELETE", this.timeoutMs).message;
      }
    }
    await this.client.close().catch(() => undefined);
  }
}
