import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SPOOFED_SERVERS } from "../../scripts/gen-hostile";
import { displayName, nameFlags, quoteName, showName } from "./index";

describe("showName", () => {
  it("shows plain identifiers exactly as they are, with no flags", () => {
    for (const name of ["workplace_assistant", "mcp__s__t", "call_h_15_0", "", "a b"]) {
      expect(showName(name)).toEqual({
        raw: name,
        display: name,
        segments: [{ text: name, marked: false }],
        flags: [],
      });
    }
  });

  it("marks zero-width, bidi and homoglyph spellings, so none looks like the real name", () => {
    expect(showName(SPOOFED_SERVERS.zeroWidth)).toMatchObject({
      display: "workplace⟨U+200B⟩_assistant",
      flags: ["invisible_characters"],
    });
    expect(showName(SPOOFED_SERVERS.bidi)).toMatchObject({
      display: "workplace_⟨U+202E⟩assistant",
      flags: ["bidi_controls"],
    });
    expect(showName(SPOOFED_SERVERS.cyrillic)).toMatchObject({
      display: "w⟨U+043E⟩rkplace_assistant",
      flags: ["mixed_scripts"],
    });
    const shown = Object.values(SPOOFED_SERVERS).map(displayName);
    expect(new Set([...shown, "workplace_assistant"]).size).toBe(4);
  });

  it("marks fullwidth and mathematical look-alikes, control characters and odd whitespace", () => {
    expect(showName("ｗorkplace")).toMatchObject({
      display: "⟨U+FF57⟩orkplace",
      flags: ["lookalike_characters"],
    });
    expect(displayName("𝐰x")).toBe("⟨U+1D430⟩x");
    expect(showName("a\u001b[31mb")).toMatchObject({
      display: "a⟨U+001B⟩[31mb",
      flags: ["invisible_characters"],
    });
    expect(displayName("a\u00a0b\u2028c\u00adz\ufeff")).toBe("a⟨U+00A0⟩b⟨U+2028⟩c⟨U+00AD⟩z⟨U+FEFF⟩");
  });

  it("leaves single-script non-Latin names alone (Cyrillic, Japanese)", () => {
    expect(nameFlags("почта_ответ")).toEqual([]);
    expect(nameFlags("メール送信_東京")).toEqual([]);
    expect(displayName("почта_ответ")).toBe("почта_ответ");
  });

  it("segments mark exactly the replaced code points", () => {
    expect(showName("a\u200bb").segments).toEqual([
      { text: "a", marked: false },
      { text: "⟨U+200B⟩", marked: true },
      { text: "b", marked: false },
    ]);
  });

  it("property: the display form is unambiguous (different names never display alike)", () => {
    const alphabet = fc.constantFrom(
      "a",
      "o",
      "\u043e",
      "\u200b",
      "\u202e",
      "⟨",
      "U",
      "+",
      "2",
      "0",
      "B",
      "⟩",
      "ｗ",
      "_",
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 8 }), fc.array(alphabet, { maxLength: 8 }), (x, y) => {
        const a = x.join("");
        const b = y.join("");
        if (a !== b) expect(displayName(a)).not.toBe(displayName(b));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("quoteName", () => {
  it("quotes like JSON and marks what JSON leaves invisible", () => {
    expect(quoteName("workplace_assistant")).toBe('"workplace_assistant"');
    expect(quoteName(SPOOFED_SERVERS.zeroWidth)).toBe('"workplace⟨U+200B⟩_assistant"');
    expect(quoteName('a"b\u0007')).toBe('"a\\"b\\u0007"');
  });
});

describe("names in the contract's sentences", () => {
  it("an explanation naming a spoofed server shows it marked, so it no longer reads like the verifying server", async () => {
    const { resolveRollout } = await import("../identity");
    const server = SPOOFED_SERVERS.zeroWidth;
    const rollout = {
      response: {
        output: [{ type: "function_call", call_id: "c0", name: "email_reply_email", arguments: "{}" }],
      },
      mcp_tool_call_provenance: { c0: { server_name: server, tool_name: "email_reply_email" } },
    };
    const [call] = resolveRollout(rollout, { server: "workplace_assistant", policy: "contract" }).calls;
    expect(call?.explanation).toContain(
      'server "workplace⟨U+200B⟩_assistant", not the verifying server "workplace_assistant"',
    );
  });
});
