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
            out = {"kind": "ok", "aware": t.tzinfo is not None, "wall": [t.year, t.month, t.day, t.hour, t.minute, t.second, t.microsecond]}
    except Exception as e:
        out = {"kind": type(e).__mro__[0].__name__, "base": "ValueError" if isinstance(e, ValueError) else type(e).__name__, "msg": str(e)}
    print(json.dumps(out))
