"""Python-level fidelity cases: the str, int() and json.loads semantics Gym's workplace_assistant code relies on
that depend on the Python version (Unicode tables, the integer string-conversion limit, json nesting).

Used by `npm run fidelity` only: it runs this file with Python 3.13 (Gym's pin) and with 3.11 (the pandas
differential's) and commits what 3.13 gives, with 3.11's answer where it differs. Cases come as JSONL from
scripts/fidelity/pylevel.ts; each output line is {"r": <outcome>}, in the formats pylevel.ts documents.
"""

import hashlib
import json
import re
import sys
import unicodedata

BLOCK = 4096
DIGIT_RE = re.compile(r"\d")
SPACE_RE = re.compile(r"\s")


def int_outcome(text):
    try:
        value = int(text)
    except ValueError as e:
        return f"ValueError: {e}"
    digits = str(abs(value))
    return f"ok:{value}" if len(digits) <= 40 else f"ok:{'-' if value < 0 else ''}{len(digits)} digits"


def json_outcome(text):
    try:
        value = json.loads(text)
    except ValueError as e:  # JSONDecodeError is a ValueError; only the int limit's message is compared
        name = type(e).__name__
        return name if name == "JSONDecodeError" else f"{name}: {e}"
    except RecursionError:
        return "RecursionError"
    return f"ok:{type(value).__name__}"


def nest_text(shape, depth):
    if shape == "list":
        return "[" * depth + "]" * depth
    if shape == "dict":
        return '{"a": ' * depth + "1" + "}" * depth
    # A call's arguments: one dict around depth - 1 nested lists.
    return '{"email_id": "00000057", "x": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def sweep_one(fn, c):
    if fn == "isdigit":
        return "1" if c.isdigit() else "0"
    if fn == "isalpha":
        return "1" if c.isalpha() else "0"
    if fn == "isspace":
        return "1" if c.isspace() else "0"
    if fn == "isprintable":
        return "1" if c.isprintable() else "0"
    if fn == "isdecimal":
        return "1" if c.isdecimal() else "0"
    if fn == "int":
        try:
            return str(int(c))
        except ValueError:
            return "E"
    if fn == "lower":
        return c.lower()
    if fn == "upper":
        return c.upper()
    if fn == "sigma_after":
        return (c + "\u03a3").lower()
    if fn == "sigma_between":
        return ("A" + c + "\u03a3").lower()
    if fn == "repr":
        return repr(c)
    if fn == "re_digit":
        return "1" if DIGIT_RE.fullmatch(c) else "0"
    if fn == "re_space":
        return "1" if SPACE_RE.fullmatch(c) else "0"
    raise ValueError(fn)


def sweep_results(fn, block):
    start = block * BLOCK
    return [sweep_one(fn, chr(cp)) for cp in range(start, min(start + BLOCK, sys.maxunicode + 1))]


def digest(results):
    # UTF-16LE with lone surrogates kept: the same bytes a JS string gives, whatever it holds.
    data = "\x00".join(results).encode("utf-16-le", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:16]


def main():
    src, dst = sys.argv[1], sys.argv[2]
    # With a third argument: also write every sweep's per-code-point results there (to count differences).
    raw_path = sys.argv[3] if len(sys.argv) > 3 else None
    raw = {}
    with open(src, encoding="utf-8") as fin, open(dst, "w", encoding="utf-8") as fout:
        for line in fin:
            case = json.loads(line)
            op = case["op"]
            if op == "int":
                r = int_outcome(case["text"])
            elif op == "json":
                r = json_outcome(case["text"])
            elif op == "json_nest":
                r = json_outcome(nest_text(case["shape"], case["depth"]))
            elif op == "sweep":
                results = sweep_results(case["fn"], case["block"])
                if raw_path:
                    raw[f"{case['fn']}/{case['block']}"] = results
                r = digest(results)
            else:
                raise ValueError(op)
            fout.write(json.dumps({"r": r}, ensure_ascii=True) + "\n")
    if raw_path:
        with open(raw_path, "w", encoding="utf-8") as f:
            json.dump(raw, f, ensure_ascii=True)
    v = sys.version_info
    sys.stderr.write(f"py_level: Python {v.major}.{v.minor}.{v.micro}, unicodedata {unicodedata.unidata_version}\n")


if __name__ == "__main__":
    main()
