/**
 * `npm run bench:nesting`: the figures behind lib/jsonl's MAX_NESTING_DEPTH. How deep an object nesting
 * ({"a":{"a":...0}}) each reader and writer of a rollout line survives:
 *
 * - CPython's json.loads and json.dumps, for every interpreter found (pyenv's versions, python3.x on PATH);
 * - this project's runtimes: Node's structuredClone and JSON.stringify, and in Debian's Chromium, a Web
 *   Worker's postMessage (how values cross between the app's workers) and a recursive copy (how
 *   canonicalization walks a value), measured on the page and in a worker.
 *
 * Writes bench/nesting.json and bench/nesting.md. Light (a few seconds); no app build needed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { MAX_NESTING_DEPTH } from "../lib/jsonl";

const ROOT = process.cwd();
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CEILING = 20_000;

const PYTHON = `
import json, sys
def nest(d):
    return '{"a":' * d + '0' + '}' * d
def value(d):
    v = 0
    for _ in range(d): v = {"a": v}
    return v
def deepest(ok):
    lo, hi = 1, ${CEILING}
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            ok(mid); lo = mid
        except RecursionError:
            hi = mid - 1
    return lo
print(json.dumps({"version": sys.version.split()[0], "recursionlimit": sys.getrecursionlimit(),
  "loads": deepest(lambda d: json.loads(nest(d))), "dumps": deepest(lambda d: json.dumps(value(d)))}))
`;

function pythons(): string[] {
  const found = new Set<string>();
  const pyenv = "/root/.pyenv/versions";
  if (existsSync(pyenv)) {
    for (const version of readdirSync(pyenv)) {
      if (!/^3\.(1[0-9])\./.test(version)) continue;
      const bin = path.join(pyenv, version, "bin/python");
      if (existsSync(bin)) found.add(bin);
    }
  }
  for (const name of ["python3.11", "python3.12", "python3.13"]) {
    const which = spawnSync("which", [name], { encoding: "utf8" });
    if (which.status === 0) found.add(which.stdout.trim());
  }
  return [...found];
}

function measurePython(bin: string) {
  const run = spawnSync(bin, ["-c", PYTHON], { encoding: "utf8" });
  if (run.status !== 0) return null;
  return { interpreter: bin, ...JSON.parse(run.stdout) };
}

/** The same search, as source text, for the page and a worker. */
const V8_PROBE = `
const ceiling = ${CEILING};
const parse = (d) => JSON.parse('{"a":'.repeat(d) + "0" + "}".repeat(d));
function deepest(f) {
  let lo = 1, hi = ceiling;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const v = parse(mid);
    let ok = true;
    try { f(v); } catch { ok = false; }
    if (ok) lo = mid; else hi = mid - 1;
  }
  return lo;
}
function copy(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(copy);
  const out = {};
  for (const key of Object.keys(v)) out[key] = copy(v[key]);
  return out;
}
const probe = () => ({
  postMessage: deepest((v) => new MessageChannel().port1.postMessage(v)),
  JSON_stringify: deepest((v) => JSON.stringify(v)),
  recursive_copy: deepest(copy),
});
`;

async function measureChromium() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage();
    await page.goto("about:blank");
    const onPage = await page.evaluate(`(() => { ${V8_PROBE}; return probe(); })()`);
    const inWorker = await page.evaluate(
      (source) =>
        new Promise((resolve) => {
          const blob = new Blob([`${source}; postMessage(probe());`], { type: "text/javascript" });
          const worker = new Worker(URL.createObjectURL(blob));
          worker.onmessage = (event) => resolve(event.data);
        }),
      V8_PROBE,
    );
    return { browser: browser.version(), page: onPage, worker: inWorker };
  } finally {
    await browser.close();
  }
}

function measureNode() {
  const deepest = (f: (v: unknown) => unknown) => {
    let lo = 1;
    let hi = CEILING;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      const v: unknown = JSON.parse(`${'{"a":'.repeat(mid)}0${"}".repeat(mid)}`);
      let ok = true;
      try {
        f(v);
      } catch {
        ok = false;
      }
      if (ok) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return {
    node: process.version,
    structuredClone: deepest((v) => structuredClone(v)),
    JSON_stringify: deepest((v) => JSON.stringify(v)),
  };
}

// One row per version: pyenv's interpreter and the one on PATH may be the same Python.
const python = [
  ...new Map(
    pythons()
      .flatMap((bin) => measurePython(bin) ?? [])
      .map((p) => [p.version, p]),
  ).values(),
];
const node = measureNode();
const browser = await measureChromium();
const results = {
  date: new Date().toISOString(),
  max_nesting_depth: MAX_NESTING_DEPTH,
  python,
  node,
  browser,
};
writeFileSync(path.join(ROOT, "bench/nesting.json"), `${JSON.stringify(results, null, 2)}\n`);
const lines = [
  "# Nesting depth (`npm run bench:nesting`)",
  "",
  `Deepest object nesting each reader or writer survives (ceiling ${CEILING}). lib/jsonl's MAX_NESTING_DEPTH is ${MAX_NESTING_DEPTH}.`,
  "",
  "| runtime | what | deepest |",
  "|---|---|---|",
  ...python.flatMap((p) => [
    `| Python ${p.version} (recursion limit ${p.recursionlimit}) | json.loads | ${p.loads} |`,
    `| Python ${p.version} | json.dumps | ${p.dumps} |`,
  ]),
  `| Node ${node.node} | structuredClone | ${node.structuredClone} |`,
  `| Node ${node.node} | JSON.stringify | ${node.JSON_stringify} |`,
  ...(["page", "worker"] as const).flatMap((where) => {
    const r = probeResult(browser[where]);
    return [
      `| Chromium ${browser.browser}, ${where} | postMessage (structured clone) | ${r.postMessage} |`,
      `| Chromium ${browser.browser}, ${where} | JSON.stringify | ${r.JSON_stringify} |`,
      `| Chromium ${browser.browser}, ${where} | recursive copy | ${r.recursive_copy} |`,
    ];
  }),
];
writeFileSync(path.join(ROOT, "bench/nesting.md"), `${lines.join("\n")}\n`);
console.log(lines.join("\n"));

function probeResult(value: unknown): {
  postMessage: number;
  JSON_stringify: number;
  recursive_copy: number;
} {
  const read = (key: string) => {
    const field = value !== null && typeof value === "object" ? Reflect.get(value, key) : undefined;
    return typeof field === "number" ? field : Number.NaN;
  };
  return {
    postMessage: read("postMessage"),
    JSON_stringify: read("JSON_stringify"),
    recursive_copy: read("recursive_copy"),
  };
}
