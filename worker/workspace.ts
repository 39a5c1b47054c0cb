/**
 * The file store and the inspector's workspace: every dataset read (the compare page picks from all of
 * them), which of them are open in the inspector and in what order, a load in progress, the opened folder,
 * and the session events that tell the page (coalesced: each one re-renders it).
 */
import { folderSummary, type OpenedFolder } from "./folder";
import type { SessionSummary } from "./protocol";
import type { Dataset } from "./store";

/** Session events are coalesced to at most one per this many ms: the page merges rows and re-renders at most that often (bench/browser.md: each update costs the main thread tens of ms on 2 cores). */
export const SESSION_EVENT_MS = 200;

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

  constructor(private readonly emit: (session: SessionSummary) => void) {}

  get(id: string): Dataset | undefined {
    return this.store.get(id);
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

  /** Coalesces change notifications into one session event per SESSION_EVENT_MS. */
  changed(): void {
    if (this.emitTimer !== null) return;
    this.emitTimer = setTimeout(() => {
      this.emitTimer = null;
      this.emit(this.session());
    }, SESSION_EVENT_MS);
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
