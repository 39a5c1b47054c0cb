/**
 * The file store and the inspector's workspace: every dataset read (the compare page picks from all of
 * them), which of them are open in the inspector and in what order, a load in progress, the opened folder,
 * and the session events that tell the page (coalesced: each one re-renders it).
 */
import { folderSummary, isServed, type OpenedFolder } from "./folder";
import { type SessionSummary, servedPathOf } from "./protocol";
import type { Dataset } from "./store";

/** Session events are coalesced to at most one per this many ms: the page merges rows and re-renders at most that often (bench/browser.md: each update costs the main thread tens of ms on 2 cores). */
export const SESSION_EVENT_MS = 200;
/**
 * Rewards landing, and index batches after a file's first rows, are said at most this often (a dataset's
 * last rewards and its complete index at once): each event re-renders the page, and at 200 ms those renders
 * took half a core from the pool on 2 cores (bench/profile-rewards.md).
 */
export const PROGRESS_EVENT_MS = 1000;

/**
 * A load's progress, passed on at most once per SESSION_EVENT_MS (the rest dropped): each report re-renders
 * the page, and the pool reports every batch it indexes (tens a second on a large file, bench/profile-rewards.md).
 */
export function progressAtMostEvery<T>(ms: number, send: (value: T) => void): (value: T) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (value) => {
    const now = Date.now();
    if (now - last < ms) return;
    last = now;
    send(value);
  };
}

/**
 * The files open after a load: a load made only of inputs files joins the workspace's rollouts; rollouts
 * loaded onto a workspace of only inputs keep those inputs; any other load replaces the workspace.
 */
export function openAfterLoad(previous: readonly Dataset[], opened: readonly Dataset[]): Dataset[] {
  const onlyInputs = opened.every((dataset) => dataset.kind === "inputs");
  const previousHasRollouts = previous.some((dataset) => dataset.kind === "rollouts");
  const previousOnlyInputs = previous.length > 0 && !previousHasRollouts;
  if ((onlyInputs && previousHasRollouts) || (!onlyInputs && previousOnlyInputs))
    return [...previous, ...opened];
  return [...opened];
}

export class Workspace {
  /** Every dataset read, by id (a file closed in the inspector stays here, for /compare). */
  readonly store = new Map<string, Dataset>();
  /** The inspector's open files, in the order opened. */
  private openIds: string[] = [];
  /** While a load runs: the open files to go back to if it is cancelled, and the files it opens. */
  private loading: { previous: string[]; opened: string[] } | null = null;
  /** The open files' folder, when they were opened as one. */
  folder: OpenedFolder | null = null;
  private emitTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the pending session event fires (Date.now()). */
  private emitDue = 0;

  constructor(private readonly emit: (session: SessionSummary) => void) {}

  /** A dataset by id, or a file of the served folder by its path (a link's served ref: protocol servedRef). */
  get(ref: string): Dataset | undefined {
    const path = servedPathOf(ref);
    if (path === null) return this.store.get(ref);
    const folder = this.folder;
    return folder !== null && isServed(folder) ? folder.datasets.get(path) : undefined;
  }

  /** The open datasets, in order. */
  datasets(): Dataset[] {
    return this.openIds.flatMap((id) => this.store.get(id) ?? []);
  }

  /** Opens these datasets (the files stay in the store either way). */
  setOpen(ids: readonly string[]): void {
    this.openIds = [...ids];
  }

  /** A load starts: until it ends, the session shows its files as soon as they have rows. */
  beginLoad(): void {
    this.loading = { previous: this.openIds, opened: [] };
  }

  /** A dataset the running load opened (rows stream into it). */
  loadOpened(dataset: Dataset): void {
    this.loading?.opened.push(dataset.id);
  }

  /** The load ended (done or cancelled): the datasets open before it. */
  endLoad(): Dataset[] {
    const previous = (this.loading?.previous ?? []).flatMap((id) => this.store.get(id) ?? []);
    this.loading = null;
    return previous;
  }

  /** The workspace as shown: a load in progress shows its files as soon as they have rows. */
  private shown(): string[] {
    if (this.loading) {
      const streaming = this.loading.opened.filter((id) => (this.store.get(id)?.entries.size ?? 0) > 0);
      if (streaming.length > 0) return streaming;
      return this.loading.previous;
    }
    return this.openIds;
  }

  session(): SessionSummary {
    const summaries = (ids: Iterable<string>) =>
      [...ids].flatMap((id) => {
        const dataset = this.store.get(id);
        return dataset ? [dataset.summary()] : [];
      });
    return {
      datasets: summaries(this.shown()),
      files: summaries([...this.store.keys()].reverse()),
      folder: this.folder === null || this.loading !== null ? null : folderSummary(this.folder),
    };
  }

  /** Coalesces change notifications into one session event, sent at most `within` ms from now. */
  changed(within = SESSION_EVENT_MS): void {
    const due = Date.now() + within;
    if (this.emitTimer !== null) {
      if (this.emitDue <= due) return;
      clearTimeout(this.emitTimer);
    }
    this.emitDue = due;
    this.emitTimer = setTimeout(() => {
      this.emitTimer = null;
      this.emit(this.session());
    }, within);
  }

  /** Sends the session now (a request's answer and its event agree). */
  flush(): SessionSummary {
    if (this.emitTimer !== null) clearTimeout(this.emitTimer);
    this.emitTimer = null;
    const session = this.session();
    this.emit(session);
    return session;
  }
}
