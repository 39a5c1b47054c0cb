import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { rolloutOrThrow } from "../schemas/rollout";
import { verifyRollout } from "../verify";
import {
  MAX_NESTING_DEPTH,
  parseJsonLine,
  parseLenient,
  parsePythonJson,
  reparseJsonLine,
  tooDeepAt,
} from "./parse";

describe("parseJsonLine", () => {
  it("parses plain JSON with the native parser's result", () => {
    expect(parseJsonLine('{"a": [1, 2.5, "x", null, true]}')).toEqual({
      ok: true,
      value: { a: [1, 2.5, "x", null, true] },
    });
  });

  it("turns NaN, Infinity and -Infinity outside strings into JS numbers", () => {
    const result = parseJsonLine('{"nan": NaN, "inf": Infinity, "neg": -Infinity, "list": [NaN, -Infinity]}');
    if (!result.ok) throw new Error(result.error);
    const value = result.value as { nan: number; inf: number; neg: number; list: number[] };
    expect(Number.isNaN(value.nan)).toBe(true);
    expect(value.inf).toBe(Number.POSITIVE_INFINITY);
    expect(value.neg).toBe(Number.NEGATIVE_INFINITY);
    expect(Number.isNaN(value.list[0])).toBe(true);
    expect(value.list[1]).toBe(Number.NEGATIVE_INFINITY);
  });

  it("leaves the tokens inside strings untouched, also next to a real token", () => {
    const result = parseJsonLine('{"s": "NaN, Infinity, -Infinity", "k\\"NaN": NaN, "esc": "a\\"Infinity"}');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const value = result.value as Record<string, unknown>;
    expect(value.s).toBe("NaN, Infinity, -Infinity");
    expect(value.esc).toBe('a"Infinity');
    expect(Number.isNaN(value['k"NaN'])).toBe(true);
  });

  it("accepts top-level scalars and the bare tokens (the schema layer decides on objects)", () => {
    expect(parseJsonLine("42")).toEqual({ ok: true, value: 42 });
    expect(parseJsonLine('"x"')).toEqual({ ok: true, value: "x" });
    expect(parseJsonLine("-Infinity")).toEqual({ ok: true, value: Number.NEGATIVE_INFINITY });
  });

  it("keeps the last of duplicate keys, like JSON.parse and Python", () => {
    expect(parseJsonLine('{"a": 1, "a": 2}')).toEqual({ ok: true, value: { a: 2 } });
    expect(parseJsonLine('{"a": 1, "b": NaN, "a": 3}')).toMatchObject({ ok: true, value: { a: 3 } });
  });

  it('keeps "__proto__" as an own key on the lenient path, as JSON.parse does', () => {
    const result = parseJsonLine('{"__proto__": {"polluted": 1}, "n": NaN}');
    if (!result.ok) throw new Error(result.error);
    expect(Object.keys(result.value as object)).toEqual(["__proto__", "n"]);
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["not json", /unexpected character "n" at position 0/],
    ['{"a": 1', /unexpected end of text/],
    ['{"a": nan}', /unexpected character "n" at position 6/],
    ['{"a": -NaN}', /expected a number/],
    ['{"a": +Infinity}', /unexpected character "\+"/],
    ['{"a": "unterminated}', /unterminated string starting at position 6/],
    ['{"a": "bad \\x escape"}', /invalid escape in string/],
    ['{"a": 1} trailing', /unexpected text after the JSON value at position 9/],
    ["", /empty text/],
    ['{"a": 01}', /expected ',' or '}'/],
    ['{"a": "tab\there"}', /control character U\+0009 in string/],
  ])("rejects %j naming the reason", (text, reason) => {
    const result = parseJsonLine(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(/^invalid JSON: /);
    expect(result.error).toMatch(reason);
  });

  it("reports too-deep nesting instead of overflowing the stack", () => {
    const depth = MAX_NESTING_DEPTH + 10;
    const result = parseJsonLine(`${"[".repeat(depth)}NaN${"]".repeat(depth)}`);
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/nesting deeper than/) });
  });

  const nest = (levels: number, inner = "1") => `${"[".repeat(levels)}${inner}${"]".repeat(levels)}`;

  it("allows exactly MAX_NESTING_DEPTH levels and refuses one more, on both paths", () => {
    for (const inner of ["1", "NaN"]) {
      expect(parseJsonLine(nest(MAX_NESTING_DEPTH, inner)).ok).toBe(true);
      const deeper = parseJsonLine(nest(MAX_NESTING_DEPTH + 1, inner));
      expect(deeper).toEqual({
        ok: false,
        error: `invalid JSON: nesting deeper than ${MAX_NESTING_DEPTH} levels (this tool's limit; CPython 3.11's json stops at 993) at position ${MAX_NESTING_DEPTH}`,
      });
    }
  });

  it("refuses 300k-deep nesting in an unrelated field of an otherwise valid rollout (valid JSON, no stack overflow)", () => {
    const deep = `{"a":`.repeat(300_000) + "0" + "}".repeat(300_000);
    const line = `{"responses_create_params":{"input":[]},"response":{"output":[]},"reward":1,"x":${deep}}`;
    const result = parseJsonLine(line);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^invalid JSON: nesting deeper than 1000 levels/);
  });

  it("a rollout nested MAX_NESTING_DEPTH deep goes through the whole pipeline: structured clone, both verifications, JSON.stringify", () => {
    // The reason the limit is not Python 3.13's 9998: the steps after parsing must survive what it lets through.
    const field = `${'{"a":'.repeat(MAX_NESTING_DEPTH - 1)}0${"}".repeat(MAX_NESTING_DEPTH - 1)}`;
    const line = `{"environment_name":"workplace_assistant","responses_create_params":{"input":[]},"response":{"output":[{"type":"function_call","call_id":"c","name":"email_reply_email","arguments":"{}"}]},"reward":1,"x":${field}}`;
    const parsed = parseJsonLine(line);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(() => structuredClone(parsed.value)).not.toThrow();
    expect(JSON.stringify(parsed.value)).toBe(line);
    for (const policy of ["contract", "legacy"] as const) {
      const result = verifyRollout(rolloutOrThrow(parsed.value), { policy });
      expect(result.server).toBe("workplace_assistant");
      expect(result.resolution.calls).toHaveLength(1);
    }
    // One more level in the same field is refused at parse time, before any of those steps.
    expect(parseJsonLine(line.replace('"x":{', '"x":{"a":{').replace(/}$/, "}}")).ok).toBe(false);
  });

  it("stops at the nesting limit before any parse: a long too-deep line is never handed to JSON.parse", () => {
    const parse = vi.spyOn(JSON, "parse");
    try {
      const line = `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`;
      expect(parseJsonLine(line)).toEqual({
        ok: false,
        error: expect.stringMatching(new RegExp(`at position ${MAX_NESTING_DEPTH}$`)),
      });
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it("the pre-parse scan survives text that is not JSON: an unterminated string ends it", () => {
    expect(tooDeepAt('["abc', 0)).toBe(0);
    expect(tooDeepAt('"abc\\" [[[', 1)).toBe(-1);
    expect(tooDeepAt('"abc\\\\" [[[', 1)).toBe(9);
    expect(tooDeepAt(`"${"[".repeat(5000)}`, 2)).toBe(-1);
    expect(parseJsonLine(`["${"[".repeat(5000)}`)).toMatchObject({
      ok: false,
      error: /unexpected end of text/,
    });
  });

  it("brackets inside strings (escaped quotes included) do not count", () => {
    const text = JSON.stringify({ s: "[".repeat(5000), t: '\\"{{{{', u: ['"]]]"', "\\"] });
    expect(parseJsonLine(text)).toEqual({ ok: true, value: JSON.parse(text) });
    expect(tooDeepAt(text, 2)).toBe(-1);
    expect(tooDeepAt(text, 1)).toBe(text.indexOf(`"u":[`) + 4);
    expect(tooDeepAt('{"a":[{"b":"\\"}]}', 2)).toBe(6);
  });
});

describe("parsePythonJson", () => {
  it("parses multi-line JSON text with the same leniency", () => {
    expect(parsePythonJson('{\n  "x": Infinity,\n  "y": [1,\n 2]\n}')).toEqual({
      ok: true,
      value: { x: Number.POSITIVE_INFINITY, y: [1, 2] },
    });
  });
});

/** Serialises like Python's json.dumps: non-finite numbers become bare tokens. */
function pythonDumps(value: unknown): string {
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (value === Number.POSITIVE_INFINITY) return "Infinity";
    if (value === Number.NEGATIVE_INFINITY) return "-Infinity";
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonDumps(v)}`);
    return `{${entries.join(", ")}}`;
  }
  return JSON.stringify(value);
}

describe("lenient parser agrees with JSON.parse", () => {
  it("on every valid JSON text", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(parseLenient(text)).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it("on accepting or rejecting mutated text without Python tokens", () => {
    const mutated = fc
      .tuple(
        fc.json(),
        fc.nat(),
        fc.constantFrom("", "{", "}", "[", "]", ",", ":", '"', "\\", "-", "0", " ", "e"),
      )
      .map(([text, at, insert]) => {
        const i = at % (text.length + 1);
        return text.slice(0, i) + insert + text.slice(i + 1);
      })
      .filter((text) => !text.includes("NaN") && !text.includes("Infinity"));
    fc.assert(
      fc.property(mutated, (text) => {
        let native: { ok: boolean; value?: unknown } = { ok: false };
        try {
          native = { ok: true, value: JSON.parse(text) };
        } catch {}
        let lenient: { ok: boolean; value?: unknown } = { ok: false };
        try {
          lenient = { ok: true, value: parseLenient(text) };
        } catch {}
        expect(lenient).toStrictEqual(native);
      }),
      { numRuns: 1000 },
    );
  });

  it("on values with NaN/Infinity written the Python way", () => {
    const withSpecials = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
        // JSON has no -0 (json.dumps writes -0.0, JSON.stringify writes 0), so the generator avoids it.
        fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (d === 0 ? 0 : d)),
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie("value"), { maxKeys: 4, noNullPrototype: true }),
      ),
    })).value;
    fc.assert(
      fc.property(withSpecials, (value) => {
        const result = parsePythonJson(pythonDumps(value));
        expect(result.ok).toBe(true);
        if (result.ok) expect(result.value).toStrictEqual(value);
      }),
      { numRuns: 500 },
    );
  });
});

describe("reparseJsonLine", () => {
  it("reads every line as parseJsonLine does: JSON, Python's tokens and errors alike", () => {
    for (const text of ['{"a":[1,2,{"b":null}]}', '{"x": NaN, "y": -Infinity}', '{"a": 1', "junk", ""]) {
      expect(reparseJsonLine(text)).toEqual(parseJsonLine(text));
    }
  });

  it("does not scan the nesting again (a line it is given was accepted once)", () => {
    const deep = `${"[".repeat(MAX_NESTING_DEPTH + 1)}${"]".repeat(MAX_NESTING_DEPTH + 1)}`;
    expect(parseJsonLine(deep).ok).toBe(false);
    expect(reparseJsonLine(deep).ok).toBe(true);
  });
});
