"""pd.Timestamp on each JSON string of a file (one per line): what pandas makes of it. Fidelity harness only."""
import json, sys, warnings
import pandas as pd
warnings.simplefilter("ignore")
for line in open(sys.argv[1], encoding="utf-8"):
    s = json.loads(line)
    try:
        t = pd.Timestamp(s)
        if t is pd.NaT:
            out = {"kind": "NaT"}
        else:
            wall = [t.year, t.month, t.day, t.hour, t.minute, t.second]
            out = {"kind": "ok", "aware": t.tzinfo is not None, "wall": wall[:3] if t.tzinfo is not None else wall}
    except Exception as e:
        # The tools only tell ValueError (OutOfBoundsDatetime and DateParseError are ValueErrors) from the rest.
        out = {"kind": "ValueError" if isinstance(e, ValueError) else type(e).__name__}
    print(json.dumps(out))
