/**
 * Gym's plain HTTP door: `/seed_session` (a session cookie, and the `mcp` block when MCP exposure is on),
 * `POST /<tool>` in that session, `GET /openapi.json`, and `POST /verify`.
 */
import { z } from "zod";
import { LiveError } from "./errors";
import { CookieJar, DEFAULT_TIMEOUT_MS, type FetchLike, fetchWithDeadline, safeJson } from "./fetch";

export const SESSION_TOKEN_HEADER = "X-NeMo-Gym-Session-Token";

export const mcpMetadataSchema = z.object({
  server_name: z.string(),
  url_path: z.string(),
  transport: z.string(),
  headers: z.record(z.string(), z.string()),
});
export type McpMetadata = z.infer<typeof mcpMetadataSchema>;

const seedResponseSchema = z.looseObject({ mcp: mcpMetadataSchema.optional() });

/** An HTTP answer as received: status and the body's exact text. */
export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

export interface DoorOptions {
  readonly fetch?: FetchLike;
  /** One deadline per request, in ms. */
  readonly timeoutMs?: number;
}

export class HttpDoor {
  readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;
  private readonly timeoutMs: number;
  private readonly jar = new CookieJar();

  constructor(baseUrl: string, options: DoorOptions = {}) {
    this.baseUrl = baseUrl;
    this.fetchImpl = options.fetch ?? ((url, init) => fetch(url, init));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  private async request(method: string, path: string, body?: string): Promise<HttpAnswer> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    const cookie = this.jar.header();
    if (cookie !== null) headers.cookie = cookie;
    const { response, text } = await fetchWithDeadline(
      this.fetchImpl,
      `${this.baseUrl}${path}`,
      { method, headers, ...(body === undefined ? {} : { body }) },
      this.timeoutMs,
      `${method} ${path}`,
    );
    this.jar.take(response.headers);
    if (response.status >= 300 && response.status < 400)
      throw new LiveError("transport_error", `${method} ${path}: redirect (${response.status}) not followed`);
    return { status: response.status, body: text };
  }

  /** Starts a session; returns the server's `mcp` block (null when the server does not expose MCP). */
  async seedSession(body: unknown = {}): Promise<{ mcp: McpMetadata | null; answer: HttpAnswer }> {
    const answer = await this.request("POST", "/seed_session", JSON.stringify(body));
    if (answer.status < 200 || answer.status >= 300) {
      throw new LiveError(
        "protocol_error",
        `POST /seed_session answered HTTP ${answer.status}: ${answer.body.slice(0, 500)}`,
        answer.status,
      );
    }
    const parsed = seedResponseSchema.safeParse(safeJson(answer.body));
    if (!parsed.success)
      throw new LiveError(
        "protocol_error",
        "POST /seed_session did not answer a JSON object with a valid mcp block",
      );
    return { mcp: parsed.data.mcp ?? null, answer };
  }

  /** `POST /<tool>` in this door's session: the HTTP status and the body's exact text. */
  callTool(name: string, args: unknown): Promise<HttpAnswer> {
    return this.request("POST", `/${encodeURIComponent(name)}`, JSON.stringify(args));
  }

  async openapi(): Promise<unknown> {
    const answer = await this.request("GET", "/openapi.json");
    if (answer.status !== 200)
      throw new LiveError(
        "protocol_error",
        `GET /openapi.json answered HTTP ${answer.status}`,
        answer.status,
      );
    const json = safeJson(answer.body);
    if (json === undefined) throw new LiveError("protocol_error", "GET /openapi.json is not JSON");
    return json;
  }

  verify(request: unknown): Promise<HttpAnswer> {
    return this.request("POST", "/verify", JSON.stringify(request));
  }
}
