import { readFileSync, readdirSync } from "node:fs";
const dir = process.argv[2];
for (const f of readdirSync(dir)) {
  const p = JSON.parse(readFileSync(`${dir}/${f}`, "utf8"));
  const byId = new Map<number, any>(); for (const n of p.nodes) byId.set(n.id, n);
  const parent = new Map<number, number>(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>(); const total = new Map<string, number>();
  const dt = p.timeDeltas; 
  p.samples.forEach((id: number, i: number) => {
    const d = (dt[i + 1] ?? 0) / 1000;
    const n = byId.get(id); const k = `${n.callFrame.functionName}@${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`;
    self.set(k, (self.get(k) ?? 0) + d);
    const seen = new Set<string>();
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) { const m = byId.get(x); const kk = `${m.callFrame.functionName}@${m.callFrame.url.split("/").slice(-2).join("/")}:${m.callFrame.lineNumber}`; if (!seen.has(kk)) { seen.add(kk); total.set(kk, (total.get(kk) ?? 0) + d); } }
  });
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`).join("\n");
  console.log("SELF\n" + top(self, 30)); console.log("TOTAL\n" + top(total, 45));
}
