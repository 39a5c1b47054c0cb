/** Files served as `cli view` serves them, for the follow tests (worker/follow.test.ts, worker/sources.test.ts). */
import type { SessionSummary } from "./protocol";
import type { DataService } from "./service";

/**
 * A file served as `cli view` serves it (range requests, 206 + Content-Range, 416 past the end), over bytes a
 * test rewrites.
 */
export function servedFile(initial: Uint8Array) {
  let bytes = initial;
  const fetcher = async (_input: unknown, init?: RequestInit): Promise<Response> => {
    const match = /^bytes=(\d+)-(\d*)$/.exec(new Headers(init?.headers).get("range") ?? "");
    const start = Number(match?.[1] ?? 0);
    if (start >= bytes.length) {
      return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${bytes.length}` } });
    }
    const end = match?.[2] ? Math.min(Number(match[2]), bytes.length - 1) : bytes.length - 1;
    return new Response(bytes.slice(start, end + 1), {
      status: 206,
      headers: { "Content-Range": `bytes ${start}-${end}/${bytes.length}` },
    });
  };
  return {
    fetcher,
    bytes: () => bytes,
    set(next: Uint8Array) {
      bytes = next;
    },
  };
}

/** Waits (polling every 50 ms, at most 10 s) until `check` holds: a followed file's next poll landed. */
export async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 10_000) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Where each line of `bytes` ends: the offset just past each line break. */
export function lineEnds(bytes: Uint8Array): number[] {
  return [...bytes.entries()].flatMap(([at, byte]) => (byte === 0x0a ? [at + 1] : []));
}

/** Files served at each `url` (the test stubs fetch for them), loaded into `service` and settled. */
export async function loadServed(
  service: DataService,
  files: readonly { readonly url: string; readonly name: string }[],
): Promise<SessionSummary> {
  const never = new AbortController().signal;
  const loaded = await service.load(
    files.map((file) => ({ kind: "remote" as const, ...file })),
    null,
    never,
    () => {},
  );
  await service.settled();
  return loaded;
}
