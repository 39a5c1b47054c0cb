"use client";
/**
 * Rollouts marked for the report, kept for the tab (sessionStorage): a reload, or a served folder read
 * again, keeps them. A mark names its file by what a reload keeps: a folder file by the folder's name and
 * its path there (a folder read again gets new dataset ids), any other file by its id (kept files keep it).
 */
import { useCallback, useMemo, useState } from "react";
import { z } from "zod";
import type { MarkedRollout } from "@/features/run/report-scope";
import type { DatasetSummary } from "@/hooks/types";
import { useStable } from "@/hooks/use-stable";

const MARKS_STORAGE_KEY = "rollout-inspector.marks";

const StoredMarks = z.array(z.object({ file: z.string(), line: z.number().int().positive() }));
type StoredMark = z.infer<typeof StoredMarks>[number];

type MarkedFile = Pick<DatasetSummary, "id" | "folder_name" | "folder_path">;

/** The name a mark's file is kept under. */
export function markFileKey(dataset: MarkedFile): string {
  return dataset.folder_name !== null && dataset.folder_path !== null
    ? `folder:${dataset.folder_name}\n${dataset.folder_path}`
    : `id:${dataset.id}`;
}

function readStored(): StoredMark[] {
  try {
    const parsed = StoredMarks.safeParse(JSON.parse(sessionStorage.getItem(MARKS_STORAGE_KEY) ?? "[]"));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function writeStored(marks: readonly StoredMark[]): void {
  try {
    sessionStorage.setItem(MARKS_STORAGE_KEY, JSON.stringify(marks));
  } catch {
    // Storage can be unavailable (private mode, quota): the marks then last as long as the page.
  }
}

function sameFiles(a: readonly (readonly [string, string])[], b: readonly (readonly [string, string])[]) {
  return a.length === b.length && a.every(([key, id], at) => key === b[at]?.[0] && id === b[at]?.[1]);
}

export interface Marks {
  /** The marks of the files open now. */
  readonly marks: readonly MarkedRollout[];
  /** Marks or unmarks one line of an open file; marks of files no longer open are dropped. */
  mark(dataset: string, line: number, on: boolean): void;
}

export function useMarks(datasets: readonly MarkedFile[]): Marks {
  const [stored, setStored] = useState<readonly StoredMark[]>(readStored);
  // Each open file's dataset id by its key, kept while no file changes (most session events change none).
  const files = useStable(
    datasets.map((dataset) => [markFileKey(dataset), dataset.id] as const),
    sameFiles,
  );
  const byKey = useMemo(() => new Map(files), [files]);
  const marks = useMemo(
    () =>
      stored.flatMap((mark) => {
        const dataset = byKey.get(mark.file);
        return dataset === undefined ? [] : [{ dataset, line: mark.line }];
      }),
    [stored, byKey],
  );
  const mark = useCallback(
    (dataset: string, line: number, on: boolean) => {
      const file = [...byKey].find(([, id]) => id === dataset)?.[0];
      if (file === undefined) return;
      setStored((previous) => {
        const kept = previous.filter((m) => byKey.has(m.file) && (m.file !== file || m.line !== line));
        const next = on ? [...kept, { file, line }] : kept;
        writeStored(next);
        return next;
      });
    },
    [byKey],
  );
  return { marks, mark };
}
