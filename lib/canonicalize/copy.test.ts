import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyJson } from "./copy";

describe("copyJson", () => {
  it("gives an equal value that shares no object with the original", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = copyJson(value);
        expect(copy).toStrictEqual(value);
        if (value !== null && typeof value === "object") expect(copy).not.toBe(value);
      }),
    );
  });

  it("keeps NaN, Infinity and a __proto__ key as own data", () => {
    const parsed: unknown = JSON.parse('{"__proto__": {"polluted": true}, "a": [1, {"b": 2}]}');
    const value = { parsed, n: Number.NaN, inf: Number.NEGATIVE_INFINITY };
    const copy = copyJson(value);
    expect(Object.keys(copy.parsed as object)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(copy.parsed)).toBe(Object.prototype);
    expect(copy.n).toBeNaN();
    expect(copy.inf).toBe(Number.NEGATIVE_INFINITY);
  });

  it("copies own keys only, also when something enumerable was added to Object.prototype", () => {
    Object.defineProperty(Object.prototype, "injected", {
      value: 1,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    try {
      const copy = copyJson({ a: { b: 2 }, c: [{ d: 3 }] });
      expect(Object.keys(copy)).toEqual(["a", "c"]);
      expect(Object.hasOwn(copy.a, "injected")).toBe(false);
      expect(Object.hasOwn(copy.c[0]!, "injected")).toBe(false);
    } finally {
      delete (Object.prototype as { injected?: number }).injected;
    }
  });

  it("copies nested objects, so mutating the copy leaves the original alone", () => {
    const original = { response: { output: [{ type: "function_call", name: "x" }] } };
    const copy = copyJson(original);
    copy.response.output[0]!.name = "y";
    expect(original.response.output[0]!.name).toBe("x");
  });
});
