/**
 * The worker threads' bundle kept on disk (cli/worker-bundle.ts): reused while nothing that went into it has
 * changed, built again when a source changes, when a file added beside one changes what an import resolves
 * to, when the kept file is damaged; never kept when a source may have changed during the build; built in
 * memory when the cache cannot be written. Each bundle is run to see which sources it holds.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { bundleModule } from "./worker-bundle";

const tmp = mkdtempSync(join(tmpdir(), "worker-bundle-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let src = "";
let cacheDir = "";
let entry = "";
let runs = 0;

/** Writes a source file, dated a minute back: older than any build the test starts. */
function source(name: string, text: string, mtime = new Date(Date.now() - 60_000)): void {
  const file = join(src, name);
  writeFileSync(file, text);
  utimesSync(file, mtime, mtime);
  utimesSync(src, mtime, mtime);
}

beforeEach(() => {
  // tmp/run-N/src: a directory above the sources that is this test's own.
  src = join(tmp, `run-${++runs}`, "src");
  cacheDir = join(tmp, `run-${runs}`, "cache");
  mkdirSync(src, { recursive: true });
  entry = join(src, "entry.ts");
  source("dep.ts", "export const value: number = 1;\n");
  source(
    "entry.ts",
    `import { parentPort } from "node:worker_threads";\nimport { value } from "./dep";\nparentPort?.postMessage(value);\n`,
  );
});

/** What the bundle at `url` posts when run as a worker thread: the value its dep.ts exported. */
async function posted(url: URL): Promise<unknown> {
  const worker = new Worker(url);
  try {
    return await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe("bundleModule: the bundle kept on disk", () => {
  it("is built once, then reused while its sources are unchanged", async () => {
    const first = await bundleModule({ entry, cacheDir });
    expect(first.from).toBe("build");
    expect(first.url.protocol).toBe("file:");
    expect(await posted(first.url)).toBe(1);
    const second = await bundleModule({ entry, cacheDir });
    expect(second).toEqual({ url: first.url, from: "cache" });
  });

  it("renews a reused bundle's age, so another run's clean-up of old bundles leaves the one in use", async () => {
    const first = await bundleModule({ entry, cacheDir });
    const file = fileURLToPath(first.url);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1_000);
    utimesSync(file, twoHoursAgo, twoHoursAgo);
    expect((await bundleModule({ entry, cacheDir })).from).toBe("cache");
    expect(Date.now() - statSync(file).mtimeMs).toBeLessThan(60_000);
    // A run after a source edit keeps its own bundle and cleans up: the one just used stays.
    source("dep.ts", "export const value: number = 3;\n");
    expect((await bundleModule({ entry, cacheDir })).from).toBe("build");
    expect(readdirSync(cacheDir)).toContain(file.split("/").pop());
  });

  it("is built again when a source changes, and the new one is kept", async () => {
    const first = await bundleModule({ entry, cacheDir });
    source("dep.ts", "export const value: number = 2;\n");
    const changed = await bundleModule({ entry, cacheDir });
    expect(changed.from).toBe("build");
    expect(changed.url).not.toEqual(first.url);
    expect(await posted(changed.url)).toBe(2);
    expect(await bundleModule({ entry, cacheDir })).toEqual({ url: changed.url, from: "cache" });
  });

  it("is built again when a file added beside a source changes what an import resolves to", async () => {
    await bundleModule({ entry, cacheDir });
    // esbuild resolves "./dep" to dep.tsx before dep.ts: no source esbuild read has changed.
    source("dep.tsx", "export const value: number = 3;\n");
    const added = await bundleModule({ entry, cacheDir });
    expect(added.from).toBe("build");
    expect(await posted(added.url)).toBe(3);
  });

  it("is built again when a tsconfig.json above the sources appears", async () => {
    await bundleModule({ entry, cacheDir });
    writeFileSync(join(src, "..", "tsconfig.json"), `{"compilerOptions":{}}\n`);
    expect((await bundleModule({ entry, cacheDir })).from).toBe("build");
  });

  it("is built again when the kept bundle was changed or cut short", async () => {
    const first = await bundleModule({ entry, cacheDir });
    const name = readdirSync(cacheDir).find((file) => file.endsWith(".mjs"));
    expect(name).toBeDefined();
    writeFileSync(join(cacheDir, name!), "parentPort.postMessage(");
    const again = await bundleModule({ entry, cacheDir });
    expect(again).toEqual({ url: first.url, from: "build" });
    expect(await posted(again.url)).toBe(1);
  });

  it("is built again when the manifest is not one", async () => {
    await bundleModule({ entry, cacheDir });
    const manifest = readdirSync(cacheDir).find((file) => file.endsWith(".json"));
    writeFileSync(join(cacheDir, manifest!), `{"recipe": 1}`);
    expect((await bundleModule({ entry, cacheDir })).from).toBe("build");
    expect((await bundleModule({ entry, cacheDir })).from).toBe("cache");
  });

  it("is not kept when a source may have changed while esbuild read it", async () => {
    // Dated in the build's time: esbuild may have read the old text or the new one.
    source("dep.ts", "export const value: number = 4;\n", new Date(Date.now() + 60_000));
    const during = await bundleModule({ entry, cacheDir });
    expect(during.from).toBe("build");
    expect(during.url.protocol).toBe("data:");
    expect(await posted(during.url)).toBe(4);
    expect((await bundleModule({ entry, cacheDir })).from).toBe("build");
  });

  it("is built in memory, every time, when the cache cannot be written", async () => {
    const file = join(tmp, `not-a-dir-${runs}`);
    writeFileSync(file, "");
    const blocked = join(file, "cache");
    for (const _ of [1, 2]) {
      const bundle = await bundleModule({ entry, cacheDir: blocked });
      expect(bundle.from).toBe("build");
      expect(bundle.url.protocol).toBe("data:");
      expect(await posted(bundle.url)).toBe(1);
    }
  });

  it("with no cache directory, is built every time", async () => {
    const bundle = await bundleModule({ entry, cacheDir: null });
    expect(bundle.from).toBe("build");
    expect(await posted(bundle.url)).toBe(1);
  });
});
