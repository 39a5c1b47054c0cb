import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIEW_REFUSED_HEADER } from "../../lib/live/forward";
import { listFolder } from "./files";
import { byteRange, confine, cookieName } from "./guard";
import { listenView } from "./server";

const TOKEN = "a".repeat(48);

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("view server", () => {
  let dir: string;
  let outside: string;
  let port: number;
  let close: () => void;
  beforeAll(async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), "view-")));
    dir = join(base, "run");
    outside = join(base, "secret.txt");
    await mkdir(join(dir, "sub"), { recursive: true });
    await writeFile(join(dir, "rollouts.jsonl"), "0123456789\nabc\n");
    await writeFile(join(dir, "sub", "b.jsonl"), "{}\n");
    await mkdir(join(dir, ".git"));
    await writeFile(join(dir, ".git", "HEAD"), "ref\n");
    await writeFile(join(dir, "sub", ".DS_Store"), "x");
    await symlink(join(dir, ".git", "HEAD"), join(dir, "head.jsonl"));
    await writeFile(outside, "secret\n");
    await symlink(outside, join(dir, "link.jsonl"));
    const started = await listenView(
      {
        root: dir,
        token: TOKEN,
        list: () => listFolder(dir),
        app: (_req, res) => {
          res.writeHead(200);
          res.end("app");
        },
      },
      0,
    );
    port = started.port;
    close = () => started.server.close();
  });
  afterAll(async () => {
    close();
    await rm(join(dir, ".."), { recursive: true, force: true });
  });

  const cookie = () => ({ cookie: `${cookieName(TOKEN)}=${TOKEN}` });

  it("refuses a request without the token, and one with a wrong token, saying it was the token", async () => {
    expect((await get(port, "/")).status).toBe(403);
    expect((await get(port, "/view-api/files")).status).toBe(403);
    const wrong = await get(port, "/", { cookie: `${cookieName(TOKEN)}=${"b".repeat(48)}` });
    expect(wrong.status).toBe(403);
    // A followed file's poll tells a view started again (a new token) from a path refused (worker/follow.ts).
    expect(wrong.headers[VIEW_REFUSED_HEADER]).toBe("token");
    expect(
      (await get(port, "/view-api/file?path=head.jsonl", cookie())).headers[VIEW_REFUSED_HEADER],
    ).toBeUndefined();
  });

  it("names its cookie by its token: another view's cookie, sent to this host too through another tunnel, neither overwrites nor admits", async () => {
    const other = "c".repeat(48);
    expect(cookieName(other)).not.toBe(cookieName(TOKEN));
    const both = { cookie: `${cookieName(other)}=${other}; ${cookieName(TOKEN)}=${TOKEN}` };
    expect((await get(port, "/?served=1", both)).body).toBe("app");
    expect((await get(port, "/?served=1", { cookie: `${cookieName(other)}=${other}` })).status).toBe(403);
    // Refused, the page says how to get in.
    expect((await get(port, "/?line=3")).body).toContain("?token=");
  });

  it("swaps a token in the URL for a cookie and strips it from the address", async () => {
    const answer = await get(port, `/?served=1&token=${TOKEN}`);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/?served=1");
    expect(String(answer.headers["set-cookie"])).toContain(
      `${cookieName(TOKEN)}=${TOKEN}; Path=/; HttpOnly; SameSite=Strict`,
    );
    expect((await get(port, "/?served=1", cookie())).body).toBe("app");
    expect((await get(port, "/?served=1", { "x-view-token": TOKEN })).body).toBe("app");
  });

  it("sends the bare start page to the served folder: a second tab at the server's address shows it", async () => {
    const answer = await get(port, "/", cookie());
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/?served=1");
    // Not without the token, and not another page of the app.
    expect((await get(port, "/")).status).toBe(403);
    expect((await get(port, "/compare", cookie())).body).toBe("app");
  });

  it("refuses another Host (DNS rebinding), even with the token; a loopback name on any port is a tunnel's", async () => {
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, "localhost.evil.example"]) {
      const refused = await get(port, "/", { ...cookie(), host });
      expect(refused.status, host).toBe(403);
      expect(refused.body).toContain("127.0.0.1");
    }
    // `ssh -L 8182:127.0.0.1:PORT`: the browser names the tunnel's port.
    for (const host of [`localhost:${port}`, `127.0.0.1:${port + 1}`, "127.0.0.1", "[::1]:9999"]) {
      expect((await get(port, "/?served=1", { ...cookie(), host })).status, host).toBe(200);
    }
  });

  it("lists the folder (hidden entries and symlinks left out)", async () => {
    const listing = JSON.parse((await get(port, "/view-api/files", cookie())).body);
    expect(listing.files.map((f: { path: string }) => f.path)).toEqual(["rollouts.jsonl", "sub/b.jsonl"]);
    // Named, never served: the page says them as it says a picked folder's.
    expect(listing.hidden).toEqual([".git/", "sub/.DS_Store"]);
    // Its path where view runs: the page's shell commands name it, runnable on that machine.
    expect(listing.root).toBe(dir);
    expect((await get(port, "/view-api/file?path=.git%2FHEAD", cookie())).status).toBe(403);
    // Nor through a link inside the folder to one.
    expect((await get(port, "/view-api/file?path=head.jsonl", cookie())).status).toBe(403);
  });

  it("serves byte ranges: 206 with Content-Range, 416 past the end", async () => {
    const path = "/view-api/file?path=rollouts.jsonl";
    const whole = await get(port, path, cookie());
    expect(whole.status).toBe(200);
    expect(whole.body).toBe("0123456789\nabc\n");
    const part = await get(port, path, { ...cookie(), range: "bytes=11-" });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe("bytes 11-14/15");
    expect(part.body).toBe("abc\n");
    const head = await get(port, path, { ...cookie(), range: "bytes=0-3" });
    expect(head.body).toBe("0123");
    const past = await get(port, path, { ...cookie(), range: "bytes=15-" });
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe("bytes */15");
  });

  it("refuses .. and a symlink out of the folder", async () => {
    for (const path of [
      "../secret.txt",
      "sub/../../secret.txt",
      "./rollouts.jsonl",
      "sub//b.jsonl",
      "/etc/passwd",
    ]) {
      const answer = await get(port, `/view-api/file?path=${encodeURIComponent(path)}`, cookie());
      expect([400, 403, 404]).toContain(answer.status);
      expect(answer.body).not.toContain("secret");
    }
    const link = await get(port, "/view-api/file?path=link.jsonl", cookie());
    expect(link.status).toBe(403);
    expect(link.body).not.toContain("secret\n");
    expect((await get(port, "/view-api/file?path=sub%2Fb.jsonl", cookie())).body).toBe("{}\n");
  });
});

describe("guard", () => {
  it("reads single byte ranges as RFC 9110 does", () => {
    expect(byteRange(undefined, 10)).toEqual({ kind: "whole" });
    expect(byteRange("bytes=2-4", 10)).toEqual({ kind: "range", start: 2, end: 4 });
    expect(byteRange("bytes=2-", 10)).toEqual({ kind: "range", start: 2, end: 9 });
    expect(byteRange("bytes=-3", 10)).toEqual({ kind: "range", start: 7, end: 9 });
    expect(byteRange("bytes=5-100", 10)).toEqual({ kind: "range", start: 5, end: 9 });
    expect(byteRange("bytes=10-", 10)).toEqual({ kind: "unsatisfiable" });
    expect(byteRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
  });

  it("confines paths to the folder", async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), "confine-")));
    await writeFile(join(base, "a"), "x");
    expect(await confine(base, "a")).toEqual({ ok: true, path: join(base, "a") });
    expect((await confine(base, "..")).ok).toBe(false);
    expect((await confine(base, "a\\..")).ok).toBe(false);
    expect((await confine(base, "missing")).ok).toBe(false);
    await rm(base, { recursive: true, force: true });
  });
});
