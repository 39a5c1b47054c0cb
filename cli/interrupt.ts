/**
 * The CLI's one answer to an interrupt (Ctrl-C, `kill`, a closed terminal): every registered cleanup runs
 * (an --out's temporary file is removed, so the old output stays as it was), then the process exits with
 * 128 + the signal's number (130 for SIGINT), as a shell reports a command its signal ended.
 *
 * The handlers are installed once, by cli/main.ts, before any command runs; they stay installed for the
 * whole run, so an interrupt always ends the process here and never lets a command go on to its commit.
 */
import { constants } from "node:os";

/** The signals a user (or a process manager) stops a command with. */
export const INTERRUPT_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
export type InterruptSignal = (typeof INTERRUPT_SIGNALS)[number];

const cleanups = new Set<() => void>();
let installed = false;

/**
 * Registers a synchronous cleanup to run if the process is interrupted; returns its unregistration.
 * Synchronous, because nothing asynchronous may run once the process has decided to exit.
 */
export function onInterrupt(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
  };
}

/** Runs every registered cleanup once (a failing one does not stop the others). */
export function runInterruptCleanups(): void {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // Best effort: the others still run, and the exit status says the run was interrupted.
    }
  }
}

/** The exit status for an interrupt by `signal`: 128 + its number (SIGINT 130, SIGTERM 143, SIGHUP 129). */
export function interruptExitCode(signal: InterruptSignal): number {
  return 128 + constants.signals[signal];
}

/** Installs the handlers (once): on any INTERRUPT_SIGNALS, clean up and exit. */
export function installInterruptHandlers(): void {
  if (installed) return;
  installed = true;
  for (const signal of INTERRUPT_SIGNALS) {
    process.on(signal, () => {
      runInterruptCleanups();
      process.exit(interruptExitCode(signal));
    });
  }
}
