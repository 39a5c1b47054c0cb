/**
 * The rollouts opened in the detail pane, kept so the page can fetch their calls and transcript items a
 * range at a time as it scrolls: the summary crosses to the page at once, the rows never all at once (a
 * 100k-call rollout's calls and items are hundreds of megabytes as one structured clone).
 */
import type { OpenedDetail } from "./core";
import type { CallView, DetailParams, DetailView, TranscriptItem } from "./protocol";

/** Opened rollouts kept: the one on screen and the one before it (Back, j/k). */
export const DETAIL_CACHE_SIZE = 2;
/** Most rows one range request returns, whatever it asks for. */
export const MAX_DETAIL_RANGE = 1_000;

function keyOf(params: DetailParams): string {
  return JSON.stringify([params.dataset, params.line, params.server, params.harness, params.analysis]);
}

function range<T>(rows: readonly T[], start: number, end: number): T[] {
  const from = Math.max(0, Math.floor(start));
  return rows.slice(from, Math.min(Math.floor(end), from + MAX_DETAIL_RANGE));
}

export class DetailPages {
  private readonly opened = new Map<string, Promise<OpenedDetail | null>>();

  /** `open` computes a rollout's detail: one parse, both policies' resolutions and verifications. */
  constructor(private readonly open: (params: DetailParams) => Promise<OpenedDetail | null>) {}

  private get(params: DetailParams): Promise<OpenedDetail | null> {
    const key = keyOf(params);
    const hit = this.opened.get(key);
    if (hit !== undefined) {
      // Most recently used last.
      this.opened.delete(key);
      this.opened.set(key, hit);
      return hit;
    }
    const opening = this.open(params);
    // A failed open is not kept: the next request tries again.
    opening.catch(() => this.opened.delete(key));
    this.opened.set(key, opening);
    while (this.opened.size > DETAIL_CACHE_SIZE) {
      const oldest = this.opened.keys().next();
      if (oldest.done) break;
      this.opened.delete(oldest.value);
    }
    return opening;
  }

  async summary(params: DetailParams): Promise<DetailView | null> {
    return (await this.get(params))?.view ?? null;
  }

  async calls(params: DetailParams, start: number, end: number): Promise<CallView[] | null> {
    const opened = await this.get(params);
    return opened === null ? null : range(opened.calls, start, end);
  }

  async items(params: DetailParams, start: number, end: number): Promise<TranscriptItem[] | null> {
    const opened = await this.get(params);
    return opened === null ? null : range(opened.items, start, end);
  }
}
