import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SPOOFED_SERVERS } from "../../scripts/gen-hostile";
import { displayName, KnownNames, nameFlags, quoteName, showName } from "./index";
import { CONFUSABLES_VERSION, skeleton } from "./skeleton";

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
    const shown = Object.values(SPOOFED_SERVERS).map((name) => displayName(name));
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

describe("whitespace", () => {
  it("marks leading, trailing and doubled spaces and flags them; a single inner space stays plain", () => {
    expect(showName("workplace_assistant ")).toMatchObject({
      display: "workplace_assistant⟨U+0020⟩",
      flags: ["whitespace"],
    });
    expect(displayName(" email")).toBe("⟨U+0020⟩email");
    expect(displayName("email  reply")).toBe("email⟨U+0020⟩⟨U+0020⟩reply");
    expect(nameFlags("team store")).toEqual([]);
    expect(displayName("workplace_assistant ")).not.toBe(displayName("workplace_assistant"));
  });
});

describe("confusable names (UTS #39 skeletons)", () => {
  const known = new KnownNames([
    "workplace_assistant",
    "calendar_get_event_information_by_id",
    "email_send_email",
    "company_directory_find_email_address",
  ]);

  it("uses a generated table from a named Unicode version", () => {
    expect(CONFUSABLES_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(skeleton("ɡ")).toBe("g");
    expect(skeleton("wоrkplace")).toBe(skeleton("workplace"));
  });

  it.each([
    [
      "U+0261 Latin script g",
      "calendar_\u0261et_event_information_by_id",
      "calendar_⟨U+0261⟩et_event_information_by_id",
    ],
    ["U+0251 Latin alpha", "em\u0251il_send_email", "em⟨U+0251⟩il_send_email"],
    [
      "U+0131 U+0307 dotless i and a dot above",
      "ema\u0131\u0307l_send_email",
      "ema⟨U+0131⟩⟨U+0307⟩l_send_email",
    ],
    [
      "U+01C0 dental click for l",
      "company_directory_find_emai\u01c0_address",
      "company_directory_find_emai⟨U+01C0⟩_address",
    ],
  ])("%s: flagged confusable and its look-alike marked", (_label, name, display) => {
    expect(known.lookalike(name)).not.toBeNull();
    expect(showName(name, known)).toMatchObject({ display, flags: ["confusable"] });
    // Without the rollout's names there is nothing it could be confused with.
    expect(nameFlags(name)).toEqual([]);
  });

  it("plain ASCII names stay clean, even when their skeletons meet (rn and m, l and 1)", () => {
    const ascii = new KnownNames(["modern", "rnodern", "tool_1", "tool_l", "workplace_assistant"]);
    for (const name of ["modern", "rnodern", "tool_1", "tool_l", "workplace_assistant"])
      expect(showName(name, ascii).flags).toEqual([]);
  });

  it("a non-ASCII name no other name looks like is not confusable", () => {
    expect(nameFlags("café_order", known)).toEqual([]);
    expect(nameFlags("почта_ответ", known)).toEqual([]);
  });

  it("a name is not confusable with itself", () => {
    const self = new KnownNames(["calendar_\u0261et"]);
    expect(self.lookalike("calendar_\u0261et")).toBeNull();
  });
});
