import { describe, expect, it } from "vitest";
import { pyStrRepr } from "./python";
import {
  decimalAndSpaceToAscii,
  decimalValue,
  isPrintable,
  pyIsDigitString,
  pyLower,
  pySplitSpace,
  pyStripSpace,
  UNICODE_TABLES_PYTHON,
  UNICODE_VERSION,
} from "./pyunicode";

describe("Python's Unicode tables (generated from Python 3.13)", () => {
  it("come from the Python Gym pins", () => {
    expect(UNICODE_TABLES_PYTHON.startsWith("3.13.")).toBe(true);
    expect(UNICODE_VERSION).toBe("15.1.0");
  });

  it("repr escapes every character str.isprintable() rejects, not only C0 controls and DEL", () => {
    for (const cp of [0xa0, 0x85, 0xad, 0x200b, 0x2028, 0x3000, 0xe000, 0x378, 0xfeff, 0xe0001]) {
      expect(isPrintable(cp), cp.toString(16)).toBe(false);
    }
    for (const cp of [0x20, 0xe9, 0x130, 0x1f600, 0x3a3]) expect(isPrintable(cp)).toBe(true);
    expect(pyStrRepr("a\u00a0b\u2028\u{e0001}é")).toBe("'a\\xa0b\\u2028\\U000e0001é'");
  });

  it("decimal digits of any script, isdigit beyond them", () => {
    expect(decimalValue(0x663)).toBe(3);
    expect(decimalValue(0xff19)).toBe(9);
    expect(decimalValue(0x1d7ce)).toBe(0);
    expect(decimalValue(0xb2)).toBe(-1); // superscript two: a digit, not a decimal
    expect(pyIsDigitString("\u00b2\u2460")).toBe(true);
    expect(decimalValue(0x11f50)).toBe(0); // Kawi digit zero: Unicode 15.0 (Python 3.11 refuses it)
    expect(decimalAndSpaceToAscii("\u3000\u0663\u0660\u0085")).toBe(" 30 ");
  });

  it("lower() follows Python's tables, including final sigma, not the JS engine's newer ones", () => {
    expect(pyLower("ΣΑΣ ΟΣ.")).toBe("σας ος.");
    expect(pyLower("İ")).toBe("i\u0307");
    // U+A7CB was given a lower case in Unicode 16: Python 3.13 leaves it alone.
    expect(pyLower("\ua7cb")).toBe("\ua7cb");
    expect(pyLower("\ua7cbΣ")).toBe("\ua7cbσ");
  });

  it("strip and split use Python's whitespace (\\x1c-\\x1f and \\x85 yes, \\u200b and \\ufeff no)", () => {
    expect(pyStripSpace("\x1c\x85 a\u3000")).toBe("a");
    expect(pyStripSpace("\ufeffa\u200b")).toBe("\ufeffa\u200b");
    expect(pySplitSpace("a\x1fb\u00a0c\u200bd")).toEqual(["a", "b", "c\u200bd"]);
  });
});
