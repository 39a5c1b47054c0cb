/**
 * The rollouts opened in the detail pane, kept so the page can fetch their calls and transcript items a
 * range at a time as it scrolls: the summary crosses to the page at once, the rows never all at once (a
 * 100k-call rollout's calls and items are hundreds of megabytes as one structured clone), and each range
 * is built when it is asked for (worker/core openDetail). Both verifications are asked for apart, so the
 * calls are on screen while a long rollout is still being replayed.
 */
import { badgePage, type DecisiveCall, type PackedBadges } from "@/lib/triage";
import { MAX_DETAIL_RANGE, type OpenedDetail } from "@/worker/core";
import type {
  CallView,
  DetailParams,
  DetailView,
  TranscriptItem,
  VerificationView,
  VerifiedDetail,
} from "@/worker/protocol";

/** Opened rollouts kept: the one on screen and the one before it (Back, j/k). */
export const DETAIL_CACHE_SIZE = 2;

export { MAX_DETAIL_RANGE };

function keyOf(params: DetailParams): string {
  return JSON.stringify([params.dataset, params.line, params.server, params.harness, params.analysis]);
}

/** A few most recently used promises by key; a failed one is not kept, so the next request tries again. */
class Recent<V> {
  private readonly entries = new Map<string, Promise<V>>();

  get(key: string, make: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const made = make();
    made.catch(() => this.entries.delete(key));
    this.entries.set(key, made);
    while (this.entries.size > DETAIL_CACHE_SIZE) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    return made;
  }
}

export class DetailPages {
  private readonly opened = new Recent<OpenedDetail | null>();
  private readonly verified = new Recent<VerifiedDetail | null>();

  /**
   * `open` opens a rollout's detail (one parse, both policies' resolvers); `verify` computes both its
   * verifications (in the pool).
   */
  constructor(
    private readonly open: (params: DetailParams) => Promise<OpenedDetail | null>,
    private readonly verify: (params: DetailParams) => Promise<VerifiedDetail | null>,
  ) {}

  private get(params: DetailParams): Promise<OpenedDetail | null> {
    return this.opened.get(keyOf(params), () => this.open(params));
  }

  async summary(params: DetailParams): Promise<DetailView | null> {
    return (await this.get(params))?.view ?? null;
  }

  private checked(params: DetailParams): Promise<VerifiedDetail | null> {
    return this.verified.get(keyOf(params), () => this.verify(params));
  }

  async verification(params: DetailParams): Promise<VerificationView | null> {
    return (await this.checked(params))?.view ?? null;
  }

  /** Calls [start, end)'s outcome badges (at most MAX_DETAIL_RANGE), once the verification is done. */
  async badges(params: DetailParams, start: number, end: number): Promise<PackedBadges | null> {
    const checked = await this.checked(params);
    if (checked === null) return null;
    return badgePage(checked.badges, start, Math.min(end, start + MAX_DETAIL_RANGE));
  }

  /** Decisive calls [start, end) in call order (at most MAX_DETAIL_RANGE), beyond those the view lists. */
  async decisive(params: DetailParams, start: number, end: number): Promise<DecisiveCall[] | null> {
    const checked = await this.checked(params);
    if (checked === null) return null;
    const from = Math.max(0, start);
    return checked.decisive.slice(from, Math.min(end, from + MAX_DETAIL_RANGE));
  }

  async calls(params: DetailParams, start: number, end: number): Promise<CallView[] | null> {
    return (await this.get(params))?.calls(start, end) ?? null;
  }

  async items(params: DetailParams, start: number, end: number): Promise<TranscriptItem[] | null> {
    return (await this.get(params))?.items(start, end) ?? null;
  }
}
