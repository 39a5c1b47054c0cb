/**
 * The worker threads' code (cli/threads.ts): an entry and everything it imports in one ES module, bundled by
 * esbuild, and kept on disk so the next run neither starts esbuild nor waits for it before its workers
 * start (about 0.4 s of CPU, and half a second before a worker can take batches: bench/cli-threads.md).
 *
 * A kept bundle is used only while everything that went into it is as it was when it was built: the same
 * esbuild version, options and Node version (the recipe), and the same fingerprint of its inputs (each file
 * esbuild read, by content; the names in each of their directories, so a file added beside one that an
 * unchanged import would now resolve to is seen; every package.json and tsconfig.json from their
 * directories up, which decide how files are resolved and compiled). Anything else builds it again.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, utimesSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { BuildOptions } from "esbuild";
import { z } from "zod";

export interface BundleOptions {
  /** The module to bundle, an absolute path. */
  readonly entry: string;
  /** Where bundles are kept (created if missing); null: built every time, never kept. */
  readonly cacheDir: string | null;
}

export interface Bundle {
  /** A file: URL of the kept bundle, or a data: URL when it could not be kept. */
  readonly url: URL;
  /** Whether it was built by this call or taken as kept. */
  readonly from: "build" | "cache";
}

/**
 * A file whose modification time is this close to the build's start (or later) may have changed while
 * esbuild read it: that build is used but not kept. Generous: a run just after an edit only builds again.
 */
const CHANGED_DURING_BUILD_MS = 1_000;

/** Kept bundles of an older recipe or older inputs are removed once unused this long (a run may be loading one). */
const STALE_BUNDLE_MS = 60 * 60 * 1_000;

/** The files beside the inputs that decide how they are resolved and compiled. */
const CONFIG_FILES = ["package.json", "tsconfig.json"];

const Manifest = z.object({
  recipe: z.string(),
  fingerprint: z.string(),
  inputs: z.array(z.string()),
  bundle: z.string().regex(/^[\w.-]+\.mjs$/),
});
type Manifest = z.infer<typeof Manifest>;

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** The esbuild options for `entry`: one ES module for Node, esbuild itself left out (the workers never reach it). */
function buildOptions(entry: string, workingDir: string) {
  return {
    entryPoints: [entry],
    absWorkingDir: workingDir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node}`,
    write: false,
    metafile: true,
    external: ["esbuild"],
    logLevel: "silent",
    // Bundled CommonJS dependencies require node's built-in modules; an ES module has no `require`.
    banner: {
      js: `import { createRequire } from "node:module"; const require = createRequire(${JSON.stringify(pathToFileURL(entry).href)});`,
    },
  } satisfies BuildOptions;
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR");
}

/** The directories from `dir` up to the filesystem's root. */
function ancestors(dir: string): string[] {
  const dirs = [dir];
  for (let up = path.dirname(dir); up !== dirs.at(-1); up = path.dirname(up)) dirs.push(up);
  return dirs;
}

function readIfPresent(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * The inputs' fingerprint (see the module's comment), or null when one of them is gone. Read synchronously:
 * a few hundred small files, about 20 ms; asynchronously each read waited for a turn of the main thread's
 * own line work, and the worker started about 200 ms later (bench/cli-threads.md).
 */
function fingerprint(inputs: readonly string[]): string | null {
  const files = [...new Set(inputs)].sort();
  const dirs = [...new Set(files.map((file) => path.dirname(file)))].sort();
  const configs = [...new Set(dirs.flatMap(ancestors))]
    .sort()
    .flatMap((dir) => CONFIG_FILES.map((name) => path.join(dir, name)));
  const hash = createHash("sha256");
  try {
    for (const file of files) hash.update(`file ${file}\0${sha256(readFileSync(file))}\n`);
    for (const dir of dirs) hash.update(`dir ${dir}\0${readdirSync(dir).sort().join("\0")}\n`);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  for (const file of configs) {
    const content = readIfPresent(file);
    hash.update(`config ${file}\0${content ? sha256(content) : "absent"}\n`);
  }
  return hash.digest("hex");
}

/** The kept bundle of this recipe, if its inputs are as they were and its file is whole. */
function keptBundle(cacheDir: string, manifestPath: string, stem: string, recipe: string): URL | null {
  let manifest: Manifest;
  try {
    const parsed = Manifest.safeParse(JSON.parse(readFileSync(manifestPath, "utf8")));
    if (!parsed.success) return null;
    manifest = parsed.data;
  } catch {
    // None kept yet, or a manifest cut short: built again, and kept anew.
    return null;
  }
  if (manifest.recipe !== recipe) return null;
  if (fingerprint(manifest.inputs) !== manifest.fingerprint) return null;
  const bundlePath = path.join(cacheDir, manifest.bundle);
  const code = readIfPresent(bundlePath);
  // The bundle's name holds the hash of its code: a file changed or cut short since is not used.
  if (code === null || bundleName(stem, code) !== manifest.bundle) return null;
  // Its age is from its last use: another run's clean-up (STALE_BUNDLE_MS) leaves it while this run loads it.
  try {
    const now = new Date();
    utimesSync(bundlePath, now, now);
  } catch {
    // A read-only cache: the bundle is still whole, only its age is not renewed.
  }
  return pathToFileURL(bundlePath);
}

/** A bundle's file name: its entry's stem and the hash of its code. */
function bundleName(stem: string, code: Uint8Array): string {
  return `${stem}-${sha256(code).slice(0, 16)}.mjs`;
}

/** Writes `data` to `file` whole or not at all (a concurrent run reads the old file or the new one). */
async function writeWhole(file: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Keeps a new bundle and its manifest, unless an input may have changed while esbuild read it. Returns the
 * kept bundle's URL, or null when it is not kept.
 */
async function keep(
  cacheDir: string,
  manifestPath: string,
  stem: string,
  recipe: string,
  inputs: readonly string[],
  code: Uint8Array,
  started: number,
): Promise<URL | null> {
  const dirs = new Set(inputs.map((file) => path.dirname(file)));
  const times = await Promise.all([...inputs, ...dirs].map(async (file) => (await stat(file)).mtimeMs));
  if (times.some((time) => time >= started - CHANGED_DURING_BUILD_MS)) return null;
  const print = fingerprint(inputs);
  if (print === null) return null;
  await mkdir(cacheDir, { recursive: true });
  const name = bundleName(stem, code);
  await writeWhole(path.join(cacheDir, name), code);
  const manifest: Manifest = { recipe, fingerprint: print, inputs: [...inputs], bundle: name };
  await writeWhole(manifestPath, `${JSON.stringify(manifest)}\n`);
  // Older bundles of this entry, unless a run that read an older manifest may still be loading one.
  for (const other of await readdir(cacheDir)) {
    if (other === name || !other.startsWith(`${stem}-`) || !other.endsWith(".mjs")) continue;
    const file = path.join(cacheDir, other);
    const age = Date.now() - (await stat(file).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age > STALE_BUNDLE_MS) await rm(file, { force: true });
  }
  return pathToFileURL(path.join(cacheDir, name));
}

/**
 * `entry` bundled: the kept bundle when everything that went into it is unchanged, else a new build, kept
 * for the next run when it can be (a cache directory that cannot be written only costs the build).
 * Rejects when esbuild is missing (a development dependency) or the build fails.
 */
export async function bundleModule({ entry, cacheDir }: BundleOptions): Promise<Bundle> {
  const esbuild = await import("esbuild");
  const workingDir = path.dirname(entry);
  const options = buildOptions(entry, workingDir);
  const recipe = sha256(JSON.stringify({ esbuild: esbuild.version, options }));
  const stem = `${path.basename(entry).replace(/\.[^.]*$/, "")}-${sha256(entry).slice(0, 12)}`;
  const manifestPath = cacheDir === null ? null : path.join(cacheDir, `${stem}.json`);
  if (cacheDir !== null && manifestPath !== null) {
    let kept: URL | null = null;
    try {
      kept = keptBundle(cacheDir, manifestPath, stem, recipe);
    } catch {
      // An input or the bundle unreadable (not missing): built again.
    }
    if (kept !== null) return { url: kept, from: "cache" };
  }
  const started = Date.now();
  const result = await esbuild.build(options);
  const code = result.outputFiles[0]?.contents;
  if (code === undefined) throw new Error(`esbuild gave no bundle for ${entry}`);
  const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(workingDir, input));
  if (cacheDir !== null && manifestPath !== null) {
    // Not kept (a read-only or full disk, an input changed meanwhile): this run uses it from memory.
    const kept = await keep(cacheDir, manifestPath, stem, recipe, inputs, code, started).catch(() => null);
    if (kept !== null) return { url: kept, from: "build" };
  }
  return {
    url: new URL(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`),
    from: "build",
  };
}
