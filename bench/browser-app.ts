/**
 * What the browser benchmarks share: the Chromium they drive and the app they load, the one named by BASE_URL
 * or this checkout's production build served by `next start` on `port`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export const ROOT = process.cwd();
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
];

async function waitHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer`);
}

/** The app's base URL once it answers, and how to stop what was started for it. */
export async function serveApp(port: number): Promise<{ base: string; stop: () => void }> {
  const given = process.env.BASE_URL;
  if (given) {
    await waitHttp(given, 60_000);
    return { base: given, stop: () => {} };
  }
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID")))
    throw new Error("no production build: run `npx next build`");
  const base = `http://127.0.0.1:${port}`;
  const app = spawn(
    path.join(ROOT, "node_modules/.bin/next"),
    ["start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: ROOT,
      stdio: "ignore",
    },
  );
  try {
    await waitHttp(base, 60_000);
  } catch (error) {
    app.kill();
    throw error;
  }
  return { base, stop: () => app.kill() };
}
