"use client";
/**
 * TanStack Query hooks over the one data worker: the only way components get data. Every key that depends
 * on a dataset carries its id and revision (or, for a detail view, its analysis revision), so new rows,
 * new rewards and a newly paired inputs file reach every view without manual invalidation.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { z } from "zod";
import { readFileRole } from "@/lib/folder";
import type { HarnessChoice } from "@/lib/harness";
import type {
  DatasetSummary,
  FileRole,
  FolderEntry,
  LineError,
  LoadProgress,
  RolloutIndexEntry,
  SessionSummary,
  Source,
} from "@/worker/protocol";
import { SUMMARY_ERRORS, storedFileOf } from "@/worker/protocol";
import { isCancelled } from "@/worker/rpc";
import { SESSION_KEY, useDataClient } from "./data-client";
import { type Sample, SampleSchema } from "./samples";

export type { Sample } from "./samples";

export function useSession(): SessionSummary | null {
  const { data } = useQuery<SessionSummary | null>({
    queryKey: SESSION_KEY,
    queryFn: () => null,
    initialData: null,
  });
  return data;
}

export interface LoadState {
  /** fallbackServer verifies rows that name no server (a bundled sample's declared server). */
  load(sources: readonly Source[], fallbackServer?: string | null): Promise<SessionSummary | null>;
  /** Opens a folder: every file gets a role (lib/folder), rollouts are verified with its configs and task rows. */
  loadFolder(
    name: string,
    entries: readonly FolderEntry[],
    /** Roles the user chose before, by path (a served folder read again keeps them). */
    roles?: Readonly<Record<string, FileRole>>,
    /** Where the folder is on the machine serving it (`cli view`), or null. */
    root?: string | null,
  ): Promise<SessionSummary | null>;
  /** Changes one folder file's role: the folder is planned again. */
  setRole(path: string, role: FileRole): Promise<SessionSummary | null>;
  /** Reopens files kept from an earlier visit (a reload, or the landing page's recent files). */
  restore(ids: readonly string[]): Promise<SessionSummary | null>;
  cancel(): void;
  /** The running load's progress, read with useLoadProgress by what shows it (not by the whole page). */
  progress: ProgressStore;
  loading: boolean;
  error: string | null;
}

/**
 * A load's latest progress, outside React state: a report (every SESSION_EVENT_MS while a file streams in)
 * re-renders the progress bar that reads it, not the page that holds the loader (bench/main-thread.md).
 */
export interface ProgressStore {
  subscribe(listener: () => void): () => void;
  get(): LoadProgress | null;
}

function createProgressStore(): ProgressStore & { set(progress: LoadProgress | null): void } {
  let current: LoadProgress | null = null;
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => current,
    set(progress) {
      current = progress;
      for (const listener of listeners) listener();
    },
  };
}

/** The progress of the load `store` belongs to (useLoad), re-rendering the caller at each report. */
export function useLoadProgress(store: ProgressStore): LoadProgress | null {
  return useSyncExternalStore(store.subscribe, store.get, () => null);
}

type LoadRequest =
  | { kind: "load"; sources: readonly Source[]; fallbackServer: string | null }
  | { kind: "restore"; ids: readonly string[] }
  | {
      kind: "folder";
      name: string;
      entries: readonly FolderEntry[];
      roles: Readonly<Record<string, FileRole>>;
      root: string | null;
    }
  | { kind: "role"; path: string; role: FileRole };

export function useLoad(): LoadState {
  const client = useDataClient();
  const queryClient = useQueryClient();
  const [progress] = useState(createProgressStore);
  const setProgress = progress.set;
  const controller = useRef<AbortController | null>(null);
  const mutation = useMutation({
    mutationFn: async (request: LoadRequest) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setProgress(null);
      const options = { signal: abort.signal, onProgress: setProgress };
      try {
        switch (request.kind) {
          case "load":
            return await client.request(
              "load",
              { sources: request.sources, fallbackServer: request.fallbackServer },
              options,
            );
          case "restore":
            return await client.request("restore", { ids: request.ids }, options);
          case "folder":
            return await client.request(
              "loadFolder",
              { name: request.name, entries: request.entries, roles: request.roles, root: request.root },
              options,
            );
          case "role":
            return await client.request("setRole", { path: request.path, role: request.role }, options);
        }
      } finally {
        if (controller.current === abort) controller.current = null;
        setProgress(null);
      }
    },
    onSuccess: (summary) => queryClient.setQueryData(SESSION_KEY, summary),
  });
  const { mutateAsync } = mutation;
  const run = useCallback(
    async (request: LoadRequest) => {
      try {
        return await mutateAsync(request);
      } catch {
        // The mutation's error state carries the message; cancelled loads are not errors.
        return null;
      }
    },
    [mutateAsync],
  );
  const load = useCallback(
    (sources: readonly Source[], fallbackServer: string | null = null) =>
      run({ kind: "load", sources, fallbackServer }),
    [run],
  );
  const restore = useCallback((ids: readonly string[]) => run({ kind: "restore", ids }), [run]);
  const loadFolder = useCallback(
    (
      name: string,
      entries: readonly FolderEntry[],
      roles: Readonly<Record<string, FileRole>> = {},
      root: string | null = null,
    ) => run({ kind: "folder", name, entries, roles, root }),
    [run],
  );
  const setRole = useCallback((path: string, role: FileRole) => run({ kind: "role", path, role }), [run]);
  const cancel = useCallback(() => controller.current?.abort(), []);
  const error = mutation.error && !isCancelled(mutation.error) ? mutation.error.message : null;
  return { load, loadFolder, setRole, restore, cancel, progress, loading: mutation.isPending, error };
}

/** Where the tab remembers its open files, so a reload reopens them (sessionStorage is per tab). */
const WORKSPACE_STORAGE_KEY = "rollout-inspector.workspace";

const StoredIds = z.array(z.string());

export function storedWorkspace(): string[] {
  try {
    const parsed = StoredIds.safeParse(JSON.parse(sessionStorage.getItem(WORKSPACE_STORAGE_KEY) ?? "[]"));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

const FOLDER_STORAGE_KEY = "rollout-inspector.folder";

/** The folder the tab had open before a reload (its files are not kept: worker/service.ts loadFolder). */
export function storedFolder(): string | null {
  try {
    return sessionStorage.getItem(FOLDER_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The roles the user chose in the tab's folders, by folder (its key: storedFolderRoles). */
const FOLDER_ROLES_STORAGE_KEY = "rollout-inspector.folder-roles";

/**
 * Folders whose chosen roles the tab keeps, the latest opened last: serving another folder in the tab and
 * then the first again finds the first's roles (one entry per tab lost them), and the tab's storage stays small.
 */
export const FOLDER_ROLES_KEPT = 20;

const RolesByPath = z.record(z.string(), z.string());
const StoredRoles = z.record(z.string(), RolesByPath);

function readStoredRoles(): z.infer<typeof StoredRoles> {
  try {
    const parsed = StoredRoles.safeParse(
      JSON.parse(sessionStorage.getItem(FOLDER_ROLES_STORAGE_KEY) ?? "{}"),
    );
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/**
 * Roles the user chose in a served folder before a reload (read again, it keeps them), by the folder's path
 * where it is served (a picked folder is not read again: nothing is kept for it).
 */
export function storedFolderRoles(key: string): Record<string, FileRole> {
  const roles: Record<string, FileRole> = {};
  for (const [path, value] of Object.entries(readStoredRoles()[key] ?? {})) {
    const role = readFileRole(value);
    if (role !== null) roles[path] = role;
  }
  return roles;
}

/** Keeps folder `key`'s chosen roles (none: forgets them), as the latest folder, FOLDER_ROLES_KEPT at most. */
function keepFolderRoles(key: string, roles: z.infer<typeof RolesByPath>): void {
  const all = readStoredRoles();
  delete all[key];
  if (Object.keys(roles).length > 0) all[key] = roles;
  const kept = Object.entries(all).slice(-FOLDER_ROLES_KEPT);
  sessionStorage.setItem(FOLDER_ROLES_STORAGE_KEY, JSON.stringify(Object.fromEntries(kept)));
}

/**
 * Writes the workspace's file ids whenever they change; an opened folder's name instead of its files' ids,
 * which nothing keeps, so a reload can say which folder to open again rather than reopen nothing, and the
 * roles chosen in it, which reading it again keeps.
 */
export function useRememberWorkspace(session: SessionSummary | null, loading = false): void {
  const folder = session?.folder?.name ?? null;
  // Roles are kept for a served folder, by its path (two runs' folders share names): only it is read again.
  const folderKey = session?.folder?.path ?? null;
  const ids = folder !== null ? "" : (session?.datasets.map((dataset) => dataset.id).join("\n") ?? null);
  const roles = JSON.stringify(
    Object.fromEntries(
      (session?.folder?.files ?? []).filter((file) => file.chosen).map((file) => [file.path, file.role]),
    ),
  );
  useEffect(() => {
    // While a load runs the session has no folder yet (worker/workspace.ts): nothing to forget then.
    if (ids === null || loading) return;
    try {
      sessionStorage.setItem(WORKSPACE_STORAGE_KEY, JSON.stringify(ids === "" ? [] : ids.split("\n")));
      if (folder === null) sessionStorage.removeItem(FOLDER_STORAGE_KEY);
      else sessionStorage.setItem(FOLDER_STORAGE_KEY, folder);
      const chosen = RolesByPath.safeParse(JSON.parse(roles));
      if (folderKey !== null && chosen.success) keepFolderRoles(folderKey, chosen.data);
    } catch {
      // Storage can be unavailable (private mode, quota): a reload then starts empty.
    }
  }, [ids, folder, folderKey, roles, loading]);
}

/** Files kept in the browser from earlier visits (the landing page's recent files). */
export function useRecentFiles(enabled: boolean) {
  const client = useDataClient();
  return useQuery({
    queryKey: ["recent"],
    enabled,
    queryFn: ({ signal }) => client.request("recent", {}, { signal }),
    staleTime: 0,
  });
}

export interface ReanalyzeState {
  reanalyze(dataset: string, server: string | null, harness: HarnessChoice): Promise<void>;
  pending: boolean;
}

/** Recomputes a dataset's rewards for another verifying server or harness (they fill in behind). */
export function useReanalyze(): ReanalyzeState {
  const client = useDataClient();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({
      dataset,
      server,
      harness,
    }: {
      dataset: string;
      server: string | null;
      harness: HarnessChoice;
    }) => client.request("reanalyze", { dataset, server, harness }),
    onSuccess: (summary) => queryClient.setQueryData(SESSION_KEY, summary),
  });
  const { mutateAsync } = mutation;
  const reanalyze = useCallback(
    async (dataset: string, server: string | null, harness: HarnessChoice) => {
      await mutateAsync({ dataset, server, harness }).catch(() => undefined);
    },
    [mutateAsync],
  );
  return { reanalyze, pending: mutation.isPending };
}

export interface IndexSnapshot {
  readonly revision: number;
  readonly entries: readonly RolloutIndexEntry[];
}

/** Position of `line` in rows sorted by line, or -1. */
function findLine(rows: readonly RolloutIndexEntry[], line: number): number {
  let low = 0;
  let high = rows.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = rows[mid]?.line ?? 0;
    if (at === line) return mid;
    if (at < line) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * Rows of `previous` (sorted by line) replaced by, or joined with, the changed rows, in line order. Runs on
 * the main thread at every revision, so it touches only the changed rows: a binary search each, and a sort
 * only when new rows land before existing ones.
 */
export function mergeEntries(
  previous: readonly RolloutIndexEntry[],
  changed: readonly RolloutIndexEntry[],
): readonly RolloutIndexEntry[] {
  // Nothing changed (the revision that closes the index): the same array, so nothing downstream recomputes.
  if (changed.length === 0) return previous;
  const out = previous.slice();
  const added: RolloutIndexEntry[] = [];
  for (const entry of changed) {
    const at = findLine(out, entry.line);
    if (at === -1) added.push(entry);
    else out[at] = entry;
  }
  if (added.length === 0) return out;
  added.sort((a, b) => a.line - b.line);
  const last = out[out.length - 1]?.line ?? 0;
  const first = added[0]?.line ?? 0;
  const merged = out.concat(added);
  return first > last ? merged : merged.sort((a, b) => a.line - b.line);
}

/** One answer of the worker's `changes`: a page of changed rows, and the line to ask from again. */
export interface ChangesPage {
  readonly entries: readonly RolloutIndexEntry[];
  readonly revision: number;
  readonly next: number | null;
}

/**
 * `before` brought to the worker's revision: the rows changed since, asked for a page at a time (the
 * worker's CHANGES_PAGE_ROWS), each answer a task of its own on the main thread. The first answer's
 * revision is the one reached: a row that changes while later pages are asked for comes again next time.
 */
export async function readChanges(
  before: IndexSnapshot,
  ask: (after: number) => Promise<ChangesPage>,
): Promise<IndexSnapshot> {
  let revision: number | null = null;
  let entries = before.revision === 0 ? [] : before.entries;
  for (let after: number | null = 0; after !== null; ) {
    const page = await ask(after);
    revision ??= page.revision;
    entries = entries.length === 0 ? page.entries : mergeEntries(entries, page.entries);
    after = page.next;
  }
  return { revision: revision ?? before.revision, entries };
}

/**
 * The index of a dataset at its current revision. Each revision asks the worker only for the rows that
 * changed since the revision this page already has, and merges them in.
 */
export function useRolloutIndex(dataset: DatasetSummary | null) {
  const client = useDataClient();
  const known = useRef(new Map<string, IndexSnapshot>());
  return useQuery<readonly RolloutIndexEntry[]>({
    queryKey: ["index", dataset?.id ?? null, dataset?.revision ?? 0],
    enabled: dataset !== null && dataset.kind === "rollouts",
    placeholderData: (previous, query) => (query?.queryKey[1] === dataset?.id ? previous : undefined),
    queryFn: async ({ signal }) => {
      if (!dataset) return [];
      const before = known.current.get(dataset.id) ?? { revision: 0, entries: [] };
      const after = await readChanges(before, (from) =>
        client.request("changes", { dataset: dataset.id, since: before.revision, after: from }, { signal }),
      );
      known.current.set(dataset.id, after);
      return after.entries;
    },
  });
}

/**
 * A dataset's unreadable lines: the summary's first SUMMARY_ERRORS, then SUMMARY_ERRORS more from the
 * worker each time `more` is called (a file of many bad lines never sends them all to the page).
 */
const NO_LINE_ERRORS: readonly LineError[] = [];

export function useLineErrors(dataset: DatasetSummary | null): {
  errors: readonly LineError[];
  total: number;
  more: () => void;
} {
  const client = useDataClient();
  const id = dataset?.id ?? null;
  const [shown, setShown] = useState({ id, end: SUMMARY_ERRORS });
  const end = shown.id === id ? shown.end : SUMMARY_ERRORS;
  const rest = useQuery({
    queryKey: ["lineErrors", id, dataset?.error_count ?? 0, end],
    enabled: id !== null && end > SUMMARY_ERRORS,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      client.request("lineErrors", { dataset: id ?? "", start: SUMMARY_ERRORS, end }, { signal }),
  });
  const more = useCallback(() => setShown({ id, end: end + SUMMARY_ERRORS }), [id, end]);
  const first = dataset?.errors ?? NO_LINE_ERRORS;
  const later = end > SUMMARY_ERRORS ? rest.data?.errors : undefined;
  // The same array while nothing changed: the errors list (LineErrors) skips its rows' render then.
  const errors = useMemo(() => (later ? [...first, ...later] : first), [first, later]);
  return { errors, total: dataset?.error_count ?? 0, more };
}

/** Tells the worker which rows are on screen, so their rewards come first. */
export function usePrioritize(datasetId: string | null) {
  const client = useDataClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  return useCallback(
    (lines: readonly number[]) => {
      if (datasetId === null) return;
      if (timer.current !== null) clearTimeout(timer.current);
      // Scrolling settles before the worker is told: a fling does not queue every row it passes.
      timer.current = setTimeout(() => {
        void client.request("prioritize", { dataset: datasetId, lines }).catch(() => undefined);
      }, PRIORITIZE_DEBOUNCE_MS);
    },
    [client, datasetId],
  );
}

/** Scrolling pauses this long before the rows on screen are sent to the worker. */
export const PRIORITIZE_DEBOUNCE_MS = 80;

/** Typing pauses this long before a search is sent to the worker. */
export const SEARCH_DEBOUNCE_MS = 200;

function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export interface SearchResult {
  /** The text this result answers (the debounced text, which can lag what is typed). */
  readonly text: string;
  readonly lines: ReadonlySet<number>;
  /** How long the worker took, once every match is in (null while matches still stream in). */
  readonly ms: number | null;
  /** How long until the first matches arrived (null before any, and for a search that found none). */
  readonly firstMs: number | null;
}

/**
 * Lines matching a text search (debounced; a newer search cancels an older one). Matches stream in as the
 * pool finds them; the key carries the dataset's row count, so a search typed while rows stream re-runs.
 */
export function useSearch(dataset: DatasetSummary | null, text: string) {
  const client = useDataClient();
  const queryClient = useQueryClient();
  const trimmed = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const key = ["search", dataset?.id ?? null, dataset?.rows ?? 0, trimmed] as const;
  return useQuery({
    queryKey: key,
    enabled: dataset !== null && trimmed.length > 0,
    queryFn: async ({ signal }): Promise<SearchResult> => {
      const started = performance.now();
      let firstMs: number | null = null;
      const { lines } = await client.request(
        "search",
        { dataset: dataset?.id ?? "", text: trimmed },
        {
          signal,
          onProgress: (partial) => {
            firstMs ??= Math.round(performance.now() - started);
            queryClient.setQueryData<SearchResult>(key, {
              text: trimmed,
              lines: new Set(partial.lines),
              ms: null,
              firstMs,
            });
          },
        },
      );
      const ms = Math.round(performance.now() - started);
      return { text: trimmed, lines: new Set(lines), ms, firstMs: firstMs ?? (lines.length > 0 ? ms : null) };
    },
    placeholderData: keepPreviousData,
  });
}

export function useHighlight(code: string | null) {
  const client = useDataClient();
  return useQuery({
    queryKey: ["highlight", code],
    enabled: code !== null,
    queryFn: ({ signal }) => client.request("highlight", { code: code ?? "", lang: "json" }, { signal }),
    gcTime: 60_000,
  });
}

export function useServers() {
  const client = useDataClient();
  return useQuery({
    queryKey: ["servers"],
    queryFn: async ({ signal }) => (await client.request("servers", {}, { signal })).servers,
  });
}

export const SAMPLES_INDEX_URL = "/samples/index.json";

/** The bundled samples' list while it is fetched, once it is, or why it could not be. */
export type SamplesList =
  | { readonly status: "pending" }
  | { readonly status: "error"; readonly error: string }
  | { readonly status: "ready"; readonly samples: readonly Sample[] };

export function samplesList(query: ReturnType<typeof useSamples>): SamplesList {
  if (query.data) return { status: "ready", samples: query.data };
  if (query.error) return { status: "error", error: query.error.message };
  return { status: "pending" };
}

export function useSamples() {
  return useQuery({
    queryKey: ["samples"],
    // A failure is the query's error, so the pages can say the samples could not be listed (not "none").
    queryFn: async ({ signal }): Promise<Sample[]> => {
      const response = await fetch(SAMPLES_INDEX_URL, { signal });
      if (!response.ok) throw new Error(`${SAMPLES_INDEX_URL} answered HTTP ${response.status}`);
      const text = await response.text();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new Error(`${SAMPLES_INDEX_URL} is not JSON`);
      }
      const parsed = z.array(SampleSchema).safeParse(value);
      if (!parsed.success) throw new Error(`${SAMPLES_INDEX_URL} is not a list of samples`);
      return parsed.data;
    },
  });
}

/** A dataset's bytes as a File (the link from an unverified line to /live), or null when it is gone. */
export function useDatasetFile(dataset: string | null) {
  const client = useDataClient();
  // A served file's path names the file read last: read again, another file, and a grown one, other bytes.
  const stored = storedFileOf(dataset, useSession()?.files ?? []);
  return useQuery({
    queryKey: ["fileOf", dataset, stored?.id ?? null, stored?.bytes ?? null],
    enabled: dataset !== null,
    queryFn: async ({ signal }) => {
      if (dataset === null) return null;
      const found = await client.request("fileOf", { dataset }, { signal });
      if (found === null) return null;
      const name = found.name.slice(found.name.lastIndexOf("/") + 1);
      return {
        file: new File([found.file], name),
        path: found.name,
        configs: found.configs,
        gymConfigs: found.gymConfigs,
      };
    },
  });
}

/** One line's verify options, keyed by the revision (it moves with the pairing, server and configs). */
function lineOptionsKey(dataset: DatasetSummary | null, line: number | null) {
  return ["lineOptions", dataset?.id ?? null, dataset?.revision ?? 0, line] as const;
}

/** How the inspector verifies one line of `dataset` (its server, its paired task row): /live shows it. */
export function useLineOptions(dataset: DatasetSummary | null, line: number | null) {
  const client = useDataClient();
  return useQuery({
    queryKey: lineOptionsKey(dataset, line),
    enabled: dataset !== null && line !== null,
    queryFn: ({ signal }) =>
      dataset === null || line === null
        ? null
        : client.request("lineOptions", { dataset: dataset.id, line }, { signal }),
  });
}

/** The same, asked line after line by a run of /live checks (cached under the same keys). */
export function useFetchLineOptions(dataset: DatasetSummary | null) {
  const client = useDataClient();
  const queries = useQueryClient();
  return useCallback(
    (line: number) =>
      dataset === null
        ? Promise.resolve(null)
        : queries.fetchQuery({
            queryKey: lineOptionsKey(dataset, line),
            // Not kept: a run of thousands of checks would keep every line's paired task row.
            gcTime: 0,
            queryFn: ({ signal }) => client.request("lineOptions", { dataset: dataset.id, line }, { signal }),
          }),
    [client, queries, dataset],
  );
}
