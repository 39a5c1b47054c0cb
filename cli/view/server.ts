/**
 * The `view` server (Node only): the app and one folder's files, read-only, on 127.0.0.1. Every request
 * passes ./guard.ts first (Host, token); `/view-api/files` lists the folder with each file's role, and
 * `/view-api/file?path=P` sends one file's bytes, honouring a Range header (206 + Content-Range), so the
 * page's worker streams a file as it streams a local one and, later, asks only for what a growing file
 * appended. Everything else goes to the app's handler (Next's request handler in `view`, a stub in tests).
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { VIEW_REFUSED_HEADER } from "../../lib/live/forward";
import type { FolderListing } from "./files";
import { admit, byteRange, confine } from "./guard";

export const FILES_ROUTE = "/view-api/files";
export const FILE_ROUTE = "/view-api/file";

export type AppHandler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

export interface ViewServerOptions {
  /** The served folder's real path. */
  readonly root: string;
  readonly token: string;
  readonly list: () => Promise<FolderListing>;
  readonly app: AppHandler;
}

/** Headers on every file-API answer: data, never sniffed into something that runs, never cached. */
const DATA_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Cache-Control": "no-store",
};

function refuse(
  response: ServerResponse,
  status: number,
  reason: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", ...DATA_HEADERS, ...headers });
  response.end(`${reason}\n`);
}

async function sendFile(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
  // The size is read from the open file, so a file that grows meanwhile is sent as it was at this moment.
  const handle = await open(path, "r");
  let size: number;
  try {
    size = (await handle.stat()).size;
  } catch (error) {
    await handle.close();
    throw error;
  }
  const range = byteRange(request.headers.range, size);
  const head = { "Accept-Ranges": "bytes", "Content-Type": "application/octet-stream", ...DATA_HEADERS };
  if (range.kind === "unsatisfiable") {
    await handle.close();
    response.writeHead(416, { ...head, "Content-Range": `bytes */${size}` });
    response.end();
    return;
  }
  const start = range.kind === "range" ? range.start : 0;
  const end = range.kind === "range" ? range.end : size - 1;
  const length = Math.max(0, end - start + 1);
  response.writeHead(range.kind === "range" ? 206 : 200, {
    ...head,
    "Content-Length": String(length),
    ...(range.kind === "range" ? { "Content-Range": `bytes ${start}-${end}/${size}` } : {}),
  });
  if (request.method === "HEAD" || length === 0) {
    await handle.close();
    response.end();
    return;
  }
  const stream = createReadStream("", { fd: handle, start, end, autoClose: true });
  stream.on("error", () => response.destroy());
  stream.pipe(response);
}

async function fileApi(
  options: ViewServerOptions,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    refuse(response, 405, "the folder is read-only");
    return;
  }
  if (url.pathname === FILES_ROUTE) {
    const listing = await options.list();
    response.writeHead(200, { "Content-Type": "application/json; charset=utf-8", ...DATA_HEADERS });
    response.end(JSON.stringify(listing));
    return;
  }
  const confined = await confine(options.root, url.searchParams.get("path") ?? "");
  if (!confined.ok) {
    refuse(response, confined.status, confined.reason);
    return;
  }
  await sendFile(request, response, confined.path);
}

/** The request listener: the guard, then the file API or the app. */
export function viewListener(options: ViewServerOptions, port: () => number) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const admission = admit({ url: request.url ?? "/", headers: request.headers }, port(), options.token);
    if (!admission.ok) {
      refuse(response, admission.status, admission.reason, { [VIEW_REFUSED_HEADER]: admission.refused });
      return;
    }
    if (admission.via === "url") {
      // The token leaves the address bar (and the history) at once; the cookie carries it from now on.
      response.writeHead(302, {
        "Set-Cookie": admission.cookie,
        Location: admission.location,
        ...DATA_HEADERS,
      });
      response.end();
      return;
    }
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "GET" && url.pathname === "/" && url.search === "") {
      // The app's start page is the served folder here: a second tab opened at the server's address shows it
      // too (the tab that followed the printed URL keeps it for itself only).
      response.writeHead(302, { Location: "/?served=1", ...DATA_HEADERS });
      response.end();
      return;
    }
    const answer =
      url.pathname === FILES_ROUTE || url.pathname === FILE_ROUTE
        ? fileApi(options, url, request, response)
        : Promise.resolve(options.app(request, response));
    answer.catch(() => {
      if (!response.headersSent) refuse(response, 500, "could not read the file");
      else response.destroy();
    });
  };
}

/** Listens on 127.0.0.1:port (0: any free port) and resolves with the server and its port. */
export function listenView(
  options: ViewServerOptions,
  port: number,
): Promise<{ server: Server; port: number }> {
  let bound = port;
  const server = createServer(viewListener(options, () => bound));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      bound = typeof address === "object" && address !== null ? address.port : port;
      server.off("error", reject);
      resolve({ server, port: bound });
    });
  });
}
