"""Runs NeMo Gym's own workplace_assistant verifier over a JSONL file of verify requests.

Used by `npm run fidelity` only (never by `npm test`). It imports Gym's code from GYM_SRC (read in place, never
copied into this project) and Gym's CSV tables from GYM_CSV, through a scratch tree of symlinks so that Gym's
`os.path.dirname(__file__)/../csv_data` lookups resolve. For each line it does what Gym's `/verify` does on the
HTTP door: the body is `json.loads`-ed, the `function_call` items of `response.output` are collected in order and
`utils.is_correct(predicted, ground_truth, None)` scores them. Output, one JSON line per input line:
{"reward": 1.0 | 0.0 | null, "skipped": <"Error executing tool" lines Gym printed>, "errors": [...], "raised": str|null}
"""

import contextlib
import io
import json
import os
import sys
import tempfile


def scratch_tree(gym_src: str, csv_dir: str) -> str:
    root = tempfile.mkdtemp(prefix="gym-fidelity-")
    wa_src = os.path.join(gym_src, "resources_servers", "workplace_assistant")
    wa = os.path.join(root, "resources_servers", "workplace_assistant")
    os.makedirs(wa)
    open(os.path.join(root, "resources_servers", "__init__.py"), "w").close()
    open(os.path.join(wa, "__init__.py"), "w").close()
    os.symlink(os.path.join(wa_src, "utils.py"), os.path.join(wa, "utils.py"))
    tools = os.path.join(wa, "workplace_assistant_tools")
    os.makedirs(tools)
    open(os.path.join(tools, "__init__.py"), "w").close()
    for name in os.listdir(os.path.join(wa_src, "workplace_assistant_tools")):
        if name.endswith(".py"):
            os.symlink(os.path.join(wa_src, "workplace_assistant_tools", name), os.path.join(tools, name))
    os.symlink(csv_dir, os.path.join(wa, "csv_data"))
    return root


def main() -> None:
    gym_src = os.environ.get("GYM_SRC", "/work/shared/reference/gym-src")
    csv_dir = os.environ.get(
        "GYM_CSV", "/work/shared/fixtures/nemo-gym/resources_servers/workplace_assistant/csv_data"
    )
    sys.path.insert(0, scratch_tree(gym_src, csv_dir))
    from resources_servers.workplace_assistant.utils import is_correct  # noqa: E402

    import pandas

    sys.stderr.write(f"gym_runner: python {sys.version.split()[0]}, pandas {pandas.__version__}\n")
    src, dst = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as fin, open(dst, "w", encoding="utf-8") as fout:
        for n, line in enumerate(fin, 1):
            body = json.loads(line)
            predicted = [item for item in body["response"]["output"] if item.get("type") == "function_call"]
            out = io.StringIO()
            raised = None
            reward = None
            with contextlib.redirect_stdout(out):
                try:
                    reward = is_correct(predicted, body["ground_truth"], None) * 1.0
                except Exception as e:  # Gym's /verify would answer 500
                    raised = f"{type(e).__name__}: {e}"
            errors = [l[len("Error executing tool:  "):] for l in out.getvalue().splitlines() if l.startswith("Error executing tool:")]
            fout.write(json.dumps({"reward": reward, "skipped": len(errors), "errors": errors, "raised": raised}) + "\n")
            if n % 500 == 0:
                sys.stderr.write(f"gym_runner: {n} lines\n")


if __name__ == "__main__":
    main()
