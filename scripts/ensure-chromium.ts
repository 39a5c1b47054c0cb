/**
 * The first step of `npm test`: the browser tests drive Debian's Chromium, so a fresh machine must have it before
 * any test runs. As root with apt-get it is installed (as .ci/run does); otherwise the run stops here with one
 * line naming the command to run. It never lets the browser tier be skipped.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const INSTALL = "apt-get install -y chromium";

export interface Machine {
  executable(path: string): boolean;
  isRoot(): boolean;
  hasApt(): boolean;
  /** Runs a command with inherited output; true when it exited 0. */
  run(command: string, args: string[]): boolean;
}

export type Outcome = { ok: true; installed: boolean } | { ok: false; message: string };

export function ensureChromium(machine: Machine, path = CHROMIUM_PATH): Outcome {
  if (machine.executable(path)) return { ok: true, installed: false };
  if (path !== "/usr/bin/chromium") {
    return {
      ok: false,
      message: `CHROMIUM_PATH=${path} is not an executable: point it at Chromium, or unset it.`,
    };
  }
  if (!machine.isRoot() || !machine.hasApt()) {
    return {
      ok: false,
      message: `Chromium is missing at ${path}: run \`sudo ${INSTALL}\`, then npm test again.`,
    };
  }
  const env = ["DEBIAN_FRONTEND=noninteractive"];
  const installed =
    machine.run("env", [...env, "apt-get", "update", "-qq"]) &&
    machine.run("env", [...env, "apt-get", "install", "-y", "-qq", "chromium"]) &&
    machine.executable(path);
  return installed
    ? { ok: true, installed: true }
    : { ok: false, message: `Installing Chromium failed: run \`${INSTALL}\` by hand, then npm test again.` };
}

const realMachine: Machine = {
  executable(path) {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  isRoot: () => process.getuid?.() === 0,
  hasApt: () => spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0,
  run: (command, args) => spawnSync(command, args, { stdio: ["ignore", "ignore", "inherit"] }).status === 0,
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const outcome = ensureChromium(realMachine);
  if (!outcome.ok) {
    console.error(outcome.message);
    process.exit(1);
  }
  if (outcome.installed) console.error(`Installed Chromium at ${CHROMIUM_PATH} (apt-get).`);
}
