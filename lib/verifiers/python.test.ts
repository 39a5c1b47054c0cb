import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  PY_INT_MAX_STR_DIGITS,
  type PyJsonBuilder,
  type PyValue,
  pyEquals,
  pyFloat,
  pyFloatRepr,
  pyFromJs,
  pyIntFromStr,
  pyJsonLoads,
  pyJsonParse,
  pyLower,
  pyStr,
  pyStrip,
  pyToJs,
} from "./python";

function loads(text: string): PyValue {
  const result = pyJsonLoads(text);
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.error}`);
  return result.value;
}

// Expected strings were produced by CPython 3.11: `str(json.loads(text))`.
const STR_OF_JSON: [string, string][] = [
  ["1.0", "1.0"],
  ["1e16", "1e+16"],
  ["9999999999999998.0", "9999999999999998.0"],
  ["0.0001", "0.0001"],
  ["0.00001", "1e-05"],
  ["1.5e-5", "1.5e-05"],
  ["123456789.123", "123456789.123"],
  ["1e22", "1e+22"],
  ["-0.0", "-0.0"],
  ["5e-324", "5e-324"],
  ["1.7976931348623157e308", "1.7976931348623157e+308"],
  ["0.1", "0.1"],
  ["100.0", "100.0"],
  ["1e100", "1e+100"],
  ["12345678901234567890", "12345678901234567890"],
  ["true", "True"],
  ["null", "None"],
  ["NaN", "nan"],
  ["-Infinity", "-inf"],
  ['"  Mixed Case "', "  Mixed Case "],
  [String.raw`[1, 2.0, true, null, "a'b", "it's \"q\""]`, `[1, 2.0, True, None, "a'b", 'it\\'s "q"']`],
  [
    String.raw`{"b": 1, "a": {"x": [1.5e20]}, "1": "\u00e9\n\u0007\u200b\ud800\u00a0"}`,
    String.raw`{'b': 1, 'a': {'x': [1.5e+20]}, '1': 'é\n\x07\u200b\ud800\xa0'}`,
  ],
];

describe("pyJsonLoads + pyStr", () => {
  it.each(STR_OF_JSON)("str(json.loads(%s)) == %s", (text, expected) => {
    expect(pyStr(loads(text))).toBe(expected);
  });

  it("keeps dict insertion order, even for integer-like keys, and lets a repeated key keep its first slot", () => {
    expect(pyStr(loads('{"b": 1, "2": 2, "b": 3}'))).toBe("{'b': 3, '2': 2}");
  });

  it("rejects what Python's json rejects", () => {
    for (const bad of [
      "",
      "{broken",
      "[1,]",
      "01",
      "'a'",
      '"\\x41"',
      '"a\tb"',
      "1 2",
      "\ufeff{}",
      "nan",
      "+1",
    ]) {
      expect(pyJsonLoads(bad).ok, bad).toBe(false);
    }
    expect(pyJsonLoads("1".repeat(PY_INT_MAX_STR_DIGITS + 1)).ok).toBe(false);
    // CPython 3.13 decodes 9998 nested containers and raises RecursionError at 9999.
    expect(pyJsonLoads("[".repeat(9998) + "]".repeat(9998)).ok).toBe(true);
    expect(pyJsonLoads("[".repeat(9999) + "]".repeat(9999)).ok).toBe(false);
  });

  it("parses any JSON.stringify output to the same data", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(pyToJs(loads(text))).toEqual(JSON.parse(text));
      }),
    );
  });
});

describe("the integer string-conversion limit (vectors from CPython 3.13.0)", () => {
  const LIMIT = PY_INT_MAX_STR_DIGITS;
  const exceeds = (n: number) =>
    `Exceeds the limit (4300 digits) for integer string conversion: value has ${n} digits; use sys.set_int_max_str_digits() to increase the limit`;

  it("json.loads raises ValueError on an integer literal of more than 4300 digits, wherever it is", () => {
    const nothing = () => null;
    const builder: PyJsonBuilder<null> = {
      none: nothing,
      bool: nothing,
      int: nothing,
      float: nothing,
      str: nothing,
      list: nothing,
      dict: nothing,
    };
    const failure = (text: string) => {
      const r = pyJsonParse(text, builder);
      return r.ok ? "ok" : `${r.pyType}: ${r.error}`;
    };
    expect(failure("1".repeat(LIMIT))).toBe("ok");
    expect(failure(`-${"1".repeat(LIMIT)}`)).toBe("ok");
    expect(failure("1".repeat(LIMIT + 1))).toBe(`ValueError: ${exceeds(4301)}`);
    expect(failure(`-${"1".repeat(LIMIT + 1)}`)).toBe(`ValueError: ${exceeds(4301)}`);
    expect(failure(`{"a": ${"1".repeat(5000)}}`)).toBe(`ValueError: ${exceeds(5000)}`);
    // The literal is converted when it is read: a later syntax error is never reached, an earlier one wins.
    expect(failure(`[${"1".repeat(5000)}, x]`)).toBe(`ValueError: ${exceeds(5000)}`);
    expect(failure(`[x, ${"1".repeat(5000)}]`).startsWith("JSONDecodeError: Expecting value")).toBe(true);
    // Floats and strings are not limited.
    expect(failure(`${"1".repeat(5000)}.0`)).toBe("ok");
    expect(failure(`${"1".repeat(5000)}e1`)).toBe("ok");
    expect(failure(`{"d": "${"1".repeat(5000)}"}`)).toBe("ok");
    expect(failure(`0${"1".repeat(5000)}`).startsWith("JSONDecodeError: Extra data")).toBe(true);
  });

  it("int() counts digits after stripping the sign, whitespace and underscores, leading zeros included", () => {
    const int = (text: string) => {
      const r = pyIntFromStr(text);
      return r.ok ? "ok" : r.error;
    };
    expect(int("1".repeat(LIMIT))).toBe("ok");
    expect(int(`-${"1".repeat(LIMIT)}`)).toBe("ok");
    expect(int(`  ${"1".repeat(LIMIT)}  `)).toBe("ok");
    expect(int("1".repeat(LIMIT).split("").join("_"))).toBe("ok");
    expect(int("1".repeat(LIMIT + 1))).toBe(exceeds(4301));
    expect(int("0".repeat(LIMIT + 1))).toBe(exceeds(4301));
    expect(int(`${"0".repeat(LIMIT)}1`)).toBe(exceeds(4301));
    expect(int(`${"1_".repeat(LIMIT)}1`)).toBe(exceeds(4301));
    expect(int(`+${"1".repeat(LIMIT + 1)}`)).toBe(exceeds(4301));
    expect(int("\u0661".repeat(LIMIT + 1))).toBe(exceeds(4301));
    expect(int(`\u3000${"9".repeat(LIMIT + 1)}`)).toBe(exceeds(4301));
    // 3.13 checks the syntax first (3.11 reported the digit limit here), and cuts the repr to 200 characters.
    expect(int(`${"1".repeat(LIMIT + 1)}x`)).toBe(
      `invalid literal for int() with base 10: '${"1".repeat(199)}`,
    );
    expect(int("x".repeat(300))).toBe(`invalid literal for int() with base 10: '${"x".repeat(199)}`);
    expect(int(" 12 3")).toBe("invalid literal for int() with base 10: ' 12 3'");
  });
});

describe("pyFloatRepr", () => {
  it("round-trips every double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (x) => {
        const repr = pyFloatRepr(x);
        const back = repr === "inf" ? Infinity : repr === "-inf" ? -Infinity : Number(repr);
        expect(Object.is(back, x)).toBe(true);
        expect(repr).toMatch(/^-?(?:\d+\.\d+|\d(?:\.\d+)?e[+-]\d{2,3}|inf)$/);
      }),
    );
  });
});

describe("pyStrip and pyLower", () => {
  it("strips Python's whitespace set, not JS trim's", () => {
    expect(pyStrip("  \x1c\x85 hi\u3000\ufeff")).toBe("hi\u3000\ufeff");
    expect(pyStrip("\u00a0x\u2028")).toBe("x");
  });

  it("lower-cases with the final sigma rule and full mappings", () => {
    expect(pyLower("ΑΣ ΣΑ")).toBe("ας σα");
    expect(pyLower("İ")).toBe("i\u0307");
  });
});

describe("pyFloat", () => {
  const cases: [string, number | null][] = [
    ["1_000", 1000],
    [" 1.5 ", 1.5],
    ["1.", 1],
    [".5", 0.5],
    ["inf", Infinity],
    ["-Infinity", -Infinity],
    ["1__0", null],
    ["_1", null],
    ["0x10", null],
    ["", null],
    ["1e5", 100000],
    ["+.5e-3", 0.0005],
  ];
  it.each(cases)("float(%j) is %s", (text, expected) => {
    expect(pyFloat({ kind: "str", value: text })).toBe(expected);
  });

  it("parses nan in any case and converts ints, bools, and refuses containers and None", () => {
    expect(pyFloat({ kind: "str", value: "nAn" })).toBeNaN();
    expect(pyFloat(loads("3"))).toBe(3);
    expect(pyFloat(loads("true"))).toBe(1);
    expect(pyFloat(loads("null"))).toBeNull();
    expect(pyFloat(loads("[1]"))).toBeNull();
    expect(pyFloat(loads(`1${"0".repeat(400)}`))).toBeNull(); // OverflowError
  });
});

describe("pyEquals", () => {
  it("follows Python's numeric tower and container equality", () => {
    expect(pyEquals(loads("1"), loads("1.0"))).toBe(true);
    expect(pyEquals(loads("true"), loads("1.0"))).toBe(true);
    expect(pyEquals(loads('{"a": 1, "b": 2}'), loads('{"b": 2, "a": 1.0}'))).toBe(true);
    expect(pyEquals(loads("[1, {}]"), loads("{}"))).toBe(false);
    expect(pyEquals(loads("9007199254740993"), loads("9007199254740992.0"))).toBe(false);
    expect(pyEquals(loads("NaN"), loads("NaN"))).toBe(false);
    expect(pyEquals(loads('"1"'), loads("1"))).toBe(false);
    expect(pyEquals(loads("null"), loads("null"))).toBe(true);
  });
});

describe("pyFromJs", () => {
  it("reads integral numbers as ints and keeps nested structure", () => {
    expect(pyStr(pyFromJs({ a: [1, 2.5, "x", null, false] }) ?? loads("0"))).toBe(
      "{'a': [1, 2.5, 'x', None, False]}",
    );
    expect(pyFromJs(undefined)).toBeNull();
  });
});

describe("pyJsonParse keeps what json.loads keeps", () => {
  const keys = (text: string) => {
    const r = pyJsonLoads(text);
    if (!r.ok || r.value.kind !== "dict") throw new Error("not a dict");
    return [...r.value.entries].map(([k, v]) => `${k}=${pyStr(v)}`);
  };

  it("insertion order, integer-like keys included; a repeated key keeps its place and takes the last value", () => {
    expect(keys('{"b": 1, "2": 2, "a": 3, "1": 4}')).toEqual(["b=1", "2=2", "a=3", "1=4"]);
    expect(keys('{"a": 1, "b": 2, "a": 3}')).toEqual(["a=3", "b=2"]);
  });

  it("int vs float, exact big integers, NaN/Infinity and overflow to inf", () => {
    expect(
      keys('{"x": 2023.0, "y": 2023, "z": 99999999999999999999, "n": NaN, "i": -Infinity, "o": 1e400}'),
    ).toEqual(["x=2023.0", "y=2023", "z=99999999999999999999", "n=nan", "i=-inf", "o=inf"]);
  });
});
