"use client";
/**
 * The detail pane's TanStack Query hooks over the data worker (./protocol.ts): one rollout's summary, its
 * verification, its calls and transcript items a page at a time, keyed by the dataset's analysis revision,
 * and its raw line.
 */
import { useQueries, useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { runViewReady } from "@/features/run/data";
import { useDataClient } from "@/hooks/data-client";
import type { HarnessChoice } from "@/lib/harness";
import { badgeAt, type CallBadge, type DecisiveCall } from "@/lib/triage";
import type { CallView, DataRequests, DatasetSummary, DetailParams, TranscriptItem } from "@/worker/protocol";

/** What the detail pane's requests read of a dataset (a session event changing anything else leaves it be). */
export type DetailSource = Pick<DatasetSummary, "id" | "ref" | "name" | "analysis">;

function detailParams(
  dataset: DetailSource | null,
  line: number | null,
  server: string | null,
  harness: HarnessChoice | null,
): DetailParams {
  return { dataset: dataset?.id ?? "", line: line ?? 0, server, harness, analysis: dataset?.analysis ?? 0 };
}

/**
 * A whole-rollout request of the detail pane (its summary, or its verification), keyed by the dataset's
 * analysis revision; the previous rollout's answer stays up only while the same line is refetched.
 */
function useDetailRequest<M extends "detail" | "detailVerification">(
  method: M,
  dataset: DetailSource | null,
  line: number | null,
  server: string | null,
  harness: HarnessChoice | null,
  enabled = true,
) {
  const client = useDataClient();
  const params = detailParams(dataset, line, server, harness);
  return useQuery<DataRequests[M]["result"]>({
    queryKey: [method, params.dataset, params.analysis, line, server, harness],
    enabled: enabled && dataset !== null && line !== null,
    placeholderData: (previous, query) =>
      query?.queryKey[1] === dataset?.id && query?.queryKey[3] === line ? previous : undefined,
    queryFn: ({ signal }) => client.request(method, params, { signal }),
  });
}

/**
 * One rollout's detail summary: header, findings, and how many calls and transcript items it has (those
 * come a page at a time: useDetailCalls, useDetailItems). One parse in the worker, which keeps the opened
 * rollout for the pages.
 */
export function useDetail(
  dataset: DetailSource | null,
  line: number | null,
  server: string | null,
  harness: HarnessChoice | null,
) {
  return useDetailRequest("detail", dataset, line, server, harness);
}

/**
 * Both verifications of the rollout useDetail opens (same arguments), computed in the verify pool apart
 * from the summary: a long rollout's calls are on screen while it is still being replayed. Asked for once
 * `opened` (the summary is in): on 2 cores a replay started alongside would halve the open's CPU.
 */
export function useDetailVerification(
  dataset: DetailSource | null,
  line: number | null,
  server: string | null,
  harness: HarnessChoice | null,
  opened: boolean,
) {
  return useDetailRequest("detailVerification", dataset, line, server, harness, opened);
}

/** Rows per page request of an opened rollout's calls or transcript items. */
export const DETAIL_PAGE_ROWS = 100;

/** The rows of an opened rollout the page has, and how it says which rows are on screen. */
export interface DetailRows<T> {
  /** The row, or undefined while its page is on its way. */
  rowAt(index: number): T | undefined;
  /** Rows [start, end) are on screen (or about to be): their pages are fetched, the page before and after too. */
  onRange(start: number, end: number): void;
}

function useDetailRows<T>(
  part: "calls" | "items" | "badges",
  params: DetailParams,
  enabled: boolean,
  fetchRows: (start: number, end: number, signal: AbortSignal) => Promise<T[] | null>,
): DetailRows<T> {
  // The pages on screen, for the rollout they were reported for (another rollout starts at its top).
  const rollout = JSON.stringify([params.dataset, params.line]);
  const [seen, setSeen] = useState({ rollout, first: 0, last: 0 });
  const pages = seen.rollout === rollout ? seen : { first: 0, last: 0 };
  const wanted: number[] = [];
  for (let page = Math.max(0, pages.first - 1); page <= pages.last + 1; page++) wanted.push(page);
  const results = useQueries({
    queries: wanted.map((page) => ({
      queryKey: [
        "detail-rows",
        part,
        params.dataset,
        params.analysis,
        params.line,
        params.server,
        params.harness,
        page,
      ],
      enabled,
      // A page of a given analysis revision never changes.
      staleTime: Number.POSITIVE_INFINITY,
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        fetchRows(page * DETAIL_PAGE_ROWS, (page + 1) * DETAIL_PAGE_ROWS, signal),
    })),
  });
  const loaded = new Map<number, T[]>();
  results.forEach((result, at) => {
    const page = wanted[at];
    if (page !== undefined && result.data) loaded.set(page, result.data);
  });
  const onRange = useCallback(
    (start: number, end: number) => {
      const first = Math.floor(Math.max(0, start) / DETAIL_PAGE_ROWS);
      const last = Math.floor(Math.max(start, end - 1, 0) / DETAIL_PAGE_ROWS);
      setSeen((previous) =>
        previous.rollout === rollout && previous.first === first && previous.last === last
          ? previous
          : { rollout, first, last },
      );
    },
    [rollout],
  );
  return {
    rowAt: (index) => loaded.get(Math.floor(index / DETAIL_PAGE_ROWS))?.[index % DETAIL_PAGE_ROWS],
    onRange,
  };
}

/** The calls of the rollout useDetail opened (same arguments), a page at a time as they come on screen. */
export function useDetailCalls(
  dataset: DetailSource | null,
  line: number | null,
  server: string | null,
  harness: HarnessChoice | null,
): DetailRows<CallView> {
  const client = useDataClient();
  const params = detailParams(dataset, line, server, harness);
  return useDetailRows("calls", params, dataset !== null && line !== null, (start, end, signal) =>
    client.request("detailCalls", { ...params, start, end }, { signal }),
  );
}

/** The transcript items of the rollout useDetail opened (same arguments), a page at a time. */
export function useDetailItems(
  dataset: DetailSource | null,
  line: number | null,
  server: string | null,
  harness: HarnessChoice | null,
): DetailRows<TranscriptItem> {
  const client = useDataClient();
  const params = detailParams(dataset, line, server, harness);
  return useDetailRows("items", params, dataset !== null && line !== null, (start, end, signal) =>
    client.request("detailItems", { ...params, start, end }, { signal }),
  );
}

/**
 * The outcome badges of the calls on screen, a page at a time, asked for once the rollout is `verified` (the
 * verification itself carries the first BADGED_CALLS): the call list and the transcript each say which
 * calls they show, and share the pages. `badgeAt` is undefined while a call's page is on its way.
 */
export function useDetailBadges(
  dataset: DetailSource | null,
  line: number | null,
  server: string | null,
  harness: HarnessChoice | null,
  verified: boolean,
) {
  const client = useDataClient();
  const params = detailParams(dataset, line, server, harness);
  const enabled = verified && dataset !== null && line !== null;
  const fetchPage = async (start: number, end: number, signal: AbortSignal) => {
    const packed = await client.request("detailBadges", { ...params, start, end }, { signal });
    if (packed === null) return null;
    const badges: (CallBadge | null)[] = [];
    for (let i = 0; i < packed.kinds.length; i++) badges.push(badgeAt(packed, packed.start + i));
    return badges;
  };
  const table = useDetailRows("badges", params, enabled, fetchPage);
  const transcript = useDetailRows("badges", params, enabled, fetchPage);
  return {
    badgeAt: (index: number): CallBadge | null | undefined => {
      const shown = table.rowAt(index);
      return shown !== undefined ? shown : transcript.rowAt(index);
    },
    /** Calls [start, end) are on screen in the call list. */
    onTableCalls: table.onRange,
    /** Calls [start, end) are on screen in the transcript. */
    onTranscriptCalls: transcript.onRange,
  };
}

/** Decisive calls [start, end) of the verified rollout (the view lists the first ones), asked for on demand. */
export function useDecisivePage(
  dataset: DetailSource | null,
  line: number | null,
  server: string | null,
  harness: HarnessChoice | null,
) {
  const client = useDataClient();
  const params = detailParams(dataset, line, server, harness);
  const key = JSON.stringify(params);
  // biome-ignore lint/correctness/useExhaustiveDependencies: params is rebuilt each render; key is its value.
  return useCallback(
    (start: number, end: number): Promise<DecisiveCall[] | null> =>
      client.request("detailDecisive", { ...params, start, end }),
    [client, key],
  );
}

/** The original bytes of one line, read back from the file when asked for (copy, download, raw view). */
export function useRawLine() {
  const client = useDataClient();
  return useCallback(
    async (dataset: string, line: number): Promise<Uint8Array | null> => {
      const result = await client.request("raw", { dataset, line });
      return result?.bytes ?? null;
    },
    [client],
  );
}

/**
 * Gym's numbers of an opened folder's rollouts file beside ours (lib/folder compareMetrics, what `cli verify
 * DIR` prints), asked for once every reward is in and again at each revision; undefined meanwhile.
 */
export function useGymMetrics(dataset: DatasetSummary | null, hasMetrics: boolean) {
  const client = useDataClient();
  const query = useQuery({
    queryKey: ["gymMetrics", dataset?.id ?? null, dataset?.revision ?? 0],
    enabled: hasMetrics && runViewReady(dataset),
    queryFn: ({ signal }) => client.request("gymMetrics", { dataset: dataset?.id ?? "" }, { signal }),
    placeholderData: (previous, query) => (query?.queryKey[1] === dataset?.id ? previous : undefined),
  });
  return query.data;
}
