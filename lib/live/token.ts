/**
 * Reading Gym's MCP session token for display. Gym signs `{"sid", "tools"}` with itsdangerous'
 * URLSafeSerializer (base64url payload, a dot, a signature; a payload starting with "." is zlib-compressed).
 * The signature needs the server's secret, which a client never has: it is never checked here, and the
 * result says so.
 */
import { z } from "zod";

export interface TokenClaims {
  /** Always "not checked": the secret stays on the server. */
  readonly signature: "not checked";
  readonly sid: string | null;
  /** The session's allowed tools; null means every tool; undefined when the claim is absent. */
  readonly tools: readonly string[] | null | undefined;
  /** Every claim as decoded. */
  readonly claims: Readonly<Record<string, unknown>>;
}

const claimsSchema = z.record(z.string(), z.unknown());
const toolsSchema = z.union([z.array(z.string()), z.null()]);

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(padded);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function inflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function decodeSessionToken(
  token: string,
): Promise<{ ok: true; value: TokenClaims } | { ok: false; error: string }> {
  const compressed = token.startsWith(".");
  const body = compressed ? token.slice(1) : token;
  const dot = body.lastIndexOf(".");
  if (dot <= 0) return { ok: false, error: "not an itsdangerous token: no payload.signature" };
  let bytes = base64UrlBytes(body.slice(0, dot));
  if (bytes === null) return { ok: false, error: "the payload is not base64url" };
  if (compressed) {
    try {
      bytes = await inflate(bytes);
    } catch {
      return { ok: false, error: "the compressed payload does not inflate" };
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return { ok: false, error: "the payload is not UTF-8 JSON" };
  }
  const claims = claimsSchema.safeParse(json);
  if (!claims.success) return { ok: false, error: "the payload is not a JSON object" };
  const sid = typeof claims.data.sid === "string" ? claims.data.sid : null;
  let tools: readonly string[] | null | undefined;
  if (Object.hasOwn(claims.data, "tools")) {
    const parsed = toolsSchema.safeParse(claims.data.tools);
    if (!parsed.success) return { ok: false, error: "the tools claim is neither null nor a list of names" };
    tools = parsed.data;
  }
  return { ok: true, value: { signature: "not checked", sid, tools, claims: claims.data } };
}
