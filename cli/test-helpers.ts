/** Fixtures the CLI's tests share (never imported by the CLI itself). */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { z } from "zod";

/**
 * A folder holding `a.jsonl.gz`, the given lines gzipped and cut halfway (some complete lines come out
 * before the damage, not all), then `b.jsonl`, the first `whole` of them intact: a damaged file among good ones.
 */
export function damagedFolder(lines: readonly string[], whole: number): string {
  const dir = mkdtempSync(join(tmpdir(), "cli-damaged-"));
  const gz = gzipSync(Buffer.from(`${lines.join("\n")}\n`));
  writeFileSync(join(dir, "a.jsonl.gz"), gz.subarray(0, Math.floor(gz.length / 2)));
  writeFileSync(join(dir, "b.jsonl"), `${lines.slice(0, whole).join("\n")}\n`);
  return dir;
}

const Located = z.object({ file: z.string(), line: z.number() }).loose();

/** The `file` and `line` of each JSON record a command printed, one per line. */
export function recordPlaces(out: string): { file: string; line: number }[] {
  return out
    .trim()
    .split("\n")
    .map((line) => Located.parse(JSON.parse(line)));
}
