/**
 * `view DIR [--port N]`: serves the app and DIR's files, read-only, on 127.0.0.1 (cli/view/): open the
 * printed URL (it carries a random token, as Jupyter's does), or reach it from another machine through an
 * SSH port forward. The app is Next's production server, run in this process around the folder's file API;
 * it needs a production build (`npx next build`), made here once when there is none.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { VIEW_GUARDED_ENV } from "../../lib/live/forward";
import { answerUsage, onlyFile, scanOptions } from "../args";
import { CliError, reasonOf, reportError } from "../errors";
import type { CommandIo } from "../io";
import { terminalText } from "../terminal";
import { listFolder } from "../view/files";
import { newToken, TOKEN_PARAM } from "../view/guard";
import { type AppHandler, listenView } from "../view/server";

export const DEFAULT_PORT = 8080;

export const HELP = `usage: npm run --silent cli -- view DIR [--port N]

Serves the app and DIR's files (read-only) on 127.0.0.1:N (default ${DEFAULT_PORT}) and prints the URL to
open, with a random token in it: the page opens the folder (rollouts and task-row files) and follows every
rollouts file while it grows (new complete lines join the open run; a truncated or replaced file is said).
Only requests that carry the token and name a loopback host (127.0.0.1, localhost, [::1]: any port, as an
SSH tunnel's local port differs from N) are answered; files are served from DIR only (no .., no symlink out
of it).

On a remote machine (a training cluster), forward the port and open the printed URL on your laptop:
  ssh -L ${DEFAULT_PORT}:127.0.0.1:${DEFAULT_PORT} cluster     # then open http://127.0.0.1:${DEFAULT_PORT}/?...

The app needs a production build: the first run makes one (npx next build, a minute or two).

options:
  --port N      the port to listen on (0: any free port)
  -h, --help    this help

Stop with Ctrl-C. Exit 2 for an unusable argument or a DIR that is not a directory.
`;

const PROJECT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function parsePort(value: string | undefined): { ok: true; port: number } | { ok: false; error: string } {
  if (value === undefined) return { ok: true, port: DEFAULT_PORT };
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    return { ok: false, error: `--port must be a port number (0-65535), not ${JSON.stringify(value)}` };
  }
  return { ok: true, port: Number(value) };
}

async function build(io: CommandIo): Promise<void> {
  await io.stderr.write("view: no production build of the app yet: running `npx next build` once...\n");
  const code = await new Promise<number>((resolve) => {
    const child = spawn("npx", ["next", "build"], { cwd: PROJECT, stdio: ["ignore", "inherit", "inherit"] });
    child.on("exit", (status) => resolve(status ?? 1));
    child.on("error", () => resolve(1));
  });
  if (code !== 0) throw new CliError("failed", "`npx next build` failed: see its output above");
}

/** Next's production request handler for this project (built first when there is no build). */
async function nextHandler(io: CommandIo, port: number): Promise<AppHandler> {
  if (!existsSync(join(PROJECT, ".next", "BUILD_ID"))) await build(io);
  // A production server: set before Next loads, as `next start` does.
  // /live's forwarding route then takes any loopback port: this server's guard admitted the request.
  Object.assign(process.env, { NODE_ENV: "production", [VIEW_GUARDED_ENV]: "1" });
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: PROJECT, hostname: "127.0.0.1", port });
  await app.prepare();
  const handle = app.getRequestHandler();
  return (request, response) => handle(request, response);
}

export async function run(argv: string[], io: CommandIo): Promise<number> {
  const scanned = scanOptions(argv, ["--port"]);
  if (!scanned.ok || scanned.help) return answerUsage(scanned, HELP, io);
  const only = onlyFile(scanned.files);
  if (!only.ok) return answerUsage({ ok: false, error: only.error.replace("FILE", "DIR") }, HELP, io);
  const port = parsePort(scanned.values.get("--port"));
  if (!port.ok) return answerUsage(port, HELP, io);
  try {
    let root: string;
    try {
      root = await realpath(only.file);
      // A file is not served alone (a run's configs and task rows are beside it): its folder is named.
      if (!(await stat(root)).isDirectory())
        throw new CliError(
          "usage",
          `${only.file} is a file, not a directory: serve the folder that holds it (view ${dirname(only.file)})`,
        );
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError("usage", `cannot read ${only.file}: ${reasonOf(error)}`, { cause: error });
    }
    const token = newToken();
    let app: AppHandler | null = null;
    const { server, port: bound } = await listenView(
      {
        root,
        token,
        list: () => listFolder(root),
        app: (request, response) => {
          if (app !== null) return app(request, response);
          response.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "5" });
          response.end("the app is starting\n");
        },
      },
      port.port,
    ).catch((error: unknown) => {
      throw new CliError("usage", `cannot listen on 127.0.0.1:${port.port}: ${reasonOf(error)}`, {
        cause: error,
      });
    });
    app = await nextHandler(io, bound);
    await io.stdout.write(
      `Serving ${terminalText(root)} (read-only) at\n\n  http://127.0.0.1:${bound}/?served=1&${TOKEN_PARAM}=${token}\n\n` +
        `From another machine: ssh -L ${bound}:127.0.0.1:${bound} HOST, then open the URL above there. Ctrl-C stops.\n`,
    );
    await new Promise<void>((resolve) => {
      const stop = () => {
        server.close(() => resolve());
        server.closeAllConnections();
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    // Next keeps timers of its own: once the server is closed, the process ends here.
    process.exit(0);
  } catch (error) {
    return reportError(error, io);
  }
}
