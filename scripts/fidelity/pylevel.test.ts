/**
 * The Python-level fidelity cases against what CPython 3.13.0 (Gym's pin) gave them
 * (fixtures/fidelity/expected-py313.jsonl, written by `npm run fidelity`): json.loads nesting from 900 to
 * 20,000 levels and the integer string-conversion limit, int() on every script's digits, and str methods
 * on every code point. The port follows 3.13 where 3.11 differs. Self-contained: no Python needed.
 */
import { describe, expect, it } from "vitest";
import { UNICODE_TABLES_PYTHON, UNICODE_VERSION } from "../../lib/verifiers/pyunicode";
import { buildPyCases, caseLabel, portOutcome, pyCaseLines, pyCasesSha256, readPyExpected } from "./pylevel";

const cases = buildPyCases();
const lines = pyCaseLines(cases);
const { header, rows } = readPyExpected();

describe("Python-level fidelity (CPython 3.13)", () => {
  it("holds the cases CPython was run on (regenerate with `npm run fidelity` after changing them)", () => {
    expect(pyCasesSha256(lines)).toBe(header.cases_sha256);
    expect(rows).toHaveLength(cases.length);
    expect(header.scored_by).toMatch(/^Python 3\.13\./);
  });

  it("checks the port's Unicode tables against the interpreter they were generated from", () => {
    // lib/verifiers/pyunicode.generated.ts comes from scripts/gen-python-unicode.py run by the same CPython.
    expect(header.scored_by).toBe(`Python ${UNICODE_TABLES_PYTHON} (unicodedata ${UNICODE_VERSION})`);
  });

  it("agrees with 3.13 on every case", () => {
    const mismatches = cases.flatMap((c, i) => {
      const ours = portOutcome(c);
      const py = rows[i]!.r;
      return ours === py
        ? []
        : [`${caseLabel(c)}: Python 3.13 ${py.slice(0, 200)} | port ${ours.slice(0, 200)}`];
    });
    expect(mismatches).toEqual([]);
  });

  it("lists where 3.11 differs (argument nesting, Unicode 15 digits and letters): the port is not 3.11", () => {
    const only311 = cases.filter((_, i) => rows[i]!.py311 !== undefined);
    expect(new Set(only311.map((c) => c.op))).toEqual(new Set(["json_nest", "int", "sweep"]));
    // 3.11 stops near 1,000 levels, 3.13 at 9,998 (at the top of the stack).
    const nest = (shape: string, depth: number) =>
      rows[cases.findIndex((c) => c.op === "json_nest" && c.shape === shape && c.depth === depth)]!;
    expect(nest("list", 5000)).toEqual({ r: "ok:list", py311: "RecursionError" });
    expect(nest("list", 9998).r).toBe("ok:list");
    expect(nest("list", 9999).r).toBe("RecursionError");
  });
});
