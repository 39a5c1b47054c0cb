"use client";
/**
 * Rollouts marked for the report, kept for the tab (sessionStorage): a reload, or a served folder read
 * again, keeps them. A mark names its file by what a reload keeps: a served folder's file by the folder's path
 * where it is served and the file's path in it (a folder read again gets new dataset ids), any other file by
 * its dataset id (a kept file keeps it; a picked folder's files get new ones at every pick, so the marks of
 * one pick never land on another folder's lines).
 */
import { useCallback, useMemo, useState } from "react";
import { z } from "zod";
import type { MarkedRollout } from "@/features/run/report-scope";
import type { DatasetSummary } from "@/hooks/types";
import { useStable } from "@/hooks/use-stable";

const MARKS_STORAGE_KEY = "rollout-inspector.marks";

const StoredMarks = z.array(z.object({ file: z.string(), line: z.number().int().positive() }));
type StoredMark = z.infer<typeof StoredMarks>[number];

type MarkedFile = Pick<DatasetSummary, "id" | "folder_path">;

/** The name a mark's file is kept under; `served`: the served folder's path where it is served, else null. */
export function markFileKey(dataset: MarkedFile, served: string | null): string {
  return served !== null && dataset.folder_path !== null
    ? `served:${served}\n${dataset.folder_path}`
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

/**
 * Marks the tab keeps, the latest last: those of files opened once (a file's id, a pick's) would otherwise
 * pile up for as long as the tab lives.
 */
export const MARKS_KEPT = 500;

function writeStored(marks: readonly StoredMark[]): void {
  try {
    sessionStorage.setItem(MARKS_STORAGE_KEY, JSON.stringify(marks.slice(-MARKS_KEPT)));
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
  /** Marks or unmarks one line of an open file (the marks of files not open now are kept: a folder loading). */
  mark(dataset: string, line: number, on: boolean): void;
  /**
   * Drops every mark of these open files: rewritten on disk, their lines are other rollouts once read again
   * (a mark names a line, and would land on whatever the run wrote there).
   */
  forget(datasets: readonly string[]): void;
}

export function useMarks(datasets: readonly MarkedFile[], served: string | null): Marks {
  const [stored, setStored] = useState<readonly StoredMark[]>(readStored);
  // Each open file's dataset id by its key, kept while no file changes (most session events change none).
  const files = useStable(
    datasets.map((dataset) => [markFileKey(dataset, served), dataset.id] as const),
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
        const kept = previous.filter((m) => m.file !== file || m.line !== line);
        const next = on ? [...kept, { file, line }] : kept;
        writeStored(next);
        return next;
      });
    },
    [byKey],
  );
  const forget = useCallback(
    (datasets: readonly string[]) => {
      const files = new Set([...byKey].filter(([, id]) => datasets.includes(id)).map(([key]) => key));
      if (files.size === 0) return;
      setStored((previous) => {
        const next = previous.filter((m) => !files.has(m.file));
        writeStored(next);
        return next;
      });
    },
    [byKey],
  );
  return { marks, mark, forget };
}
