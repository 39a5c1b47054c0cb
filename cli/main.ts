/**
 * Rollout Inspector CLI: `npm run --silent cli -- <command> [args]`.
 * Each command lives in cli/commands/<name>.ts and exports `run(args, io)`, resolving to an exit code.
 */
import { installInterruptHandlers } from "./interrupt";
import type { CommandIo } from "./io";
import { nodeIo } from "./io";

type Command = {
  summary: string;
  load: () => Promise<{ run: (args: string[], io: CommandIo) => Promise<number> }>;
};

const COMMANDS: Record<string, Command> = {
  resolve: { summary: "per-call identity of every function_call", load: () => import("./commands/resolve") },
  verify: { summary: "recompute every rollout's reward", load: () => import("./commands/verify") },
  repair: {
    summary: "derive provenance from an exact alias map (lossless JSONL)",
    load: () => import("./commands/repair"),
  },
  export: {
    summary: "verify results or per-rollout report as JSONL",
    load: () => import("./commands/export"),
  },
  compare: { summary: "two runs side by side, paired per task", load: () => import("./commands/compare") },
  triage: {
    summary: "why-zero causes and run metrics, or the (filtered) rows as CSV/JSONL",
    load: () => import("./commands/triage"),
  },
  view: {
    summary: "serve the app and a folder's files on 127.0.0.1 (follows runs as they write)",
    load: () => import("./commands/view"),
  },
  report: {
    summary: "one self-contained HTML report to share: why-zero, metrics, marked rollouts",
    load: () => import("./commands/report"),
  },
  live: { summary: "check a running Gym server's HTTP and MCP doors", load: () => import("./commands/live") },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: npm run --silent cli -- <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nRun a command with --help for its options.\n`;
}

async function main(argv: string[]): Promise<number> {
  const io = nodeIo();
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    io.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  // Own properties only: `constructor`, `__proto__` or `toString` are unknown commands, not Object's.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    io.stderr.write(`error: unknown command '${name}' (try --help)\n`);
    return 2;
  }
  const mod = await command.load();
  return mod.run(rest, io);
}

// `npm run cli` runs in the project's root, but the paths typed after it are the user's, from where they typed
// it: npm keeps that directory in INIT_CWD. Every path of the project itself is found from import.meta.
if (process.env.npm_lifecycle_event === "cli" && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
installInterruptHandlers();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
