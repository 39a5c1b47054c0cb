import { describe, expect, it } from "vitest";
import { decodeSessionToken } from "./token";

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

describe("decodeSessionToken", () => {
  it("reads the claims of a token the real server minted, and never claims the signature is valid", async () => {
    // Minted by Gym's workplace_assistant server (shared/gym-server) on 2026-11-30.
    const token =
      "eyJzaWQiOiI3YWYxMmMzZi02YjU2LTQ5ZjgtOWVkYy1iZjAxYmFkN2VjYTYiLCJ0b29scyI6bnVsbH0.CB6QvdFce4Mq6pkzgvlGeUFCtQ8";
    const decoded = await decodeSessionToken(token);
    expect(decoded).toEqual({
      ok: true,
      value: {
        signature: "not checked",
        sid: "7af12c3f-6b56-49f8-9edc-bf01bad7eca6",
        tools: null,
        claims: { sid: "7af12c3f-6b56-49f8-9edc-bf01bad7eca6", tools: null },
      },
    });
    // A forged signature decodes the same: the claims are shown, not trusted.
    const forged = await decodeSessionToken(`${token.split(".")[0]}.AAAA`);
    expect(forged.ok && forged.value.signature).toBe("not checked");
  });

  it("reads a compressed payload and an allow-list", async () => {
    const json = new TextEncoder().encode(JSON.stringify({ sid: "s1", tools: ["email_send_email"] }));
    const stream = new Blob([json]).stream().pipeThrough(new CompressionStream("deflate"));
    const deflated = new Uint8Array(await new Response(stream).arrayBuffer());
    const decoded = await decodeSessionToken(`.${b64url(deflated)}.sig`);
    expect(decoded.ok && decoded.value.tools).toEqual(["email_send_email"]);
  });

  it("says why a token cannot be read", async () => {
    expect(await decodeSessionToken("nodot")).toEqual({
      ok: false,
      error: "not an itsdangerous token: no payload.signature",
    });
    expect((await decodeSessionToken("@@@.sig")).ok).toBe(false);
    const notObject = b64url(new TextEncoder().encode("[1]"));
    expect(await decodeSessionToken(`${notObject}.sig`)).toEqual({
      ok: false,
      error: "the payload is not a JSON object",
    });
    const badTools = b64url(new TextEncoder().encode('{"sid":"x","tools":5}'));
    expect((await decodeSessionToken(`${badTools}.sig`)).ok).toBe(false);
  });
});
