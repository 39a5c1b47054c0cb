"use client";
import { useCallback, useMemo, useState } from "react";
import { useSamples, useSession } from "@/hooks/data";
import { useOpenCompareFile } from "./data";
import {
  companionsOf,
  dropPatch,
  fileChoices,
  inputsFor as inputsOf,
  type Opened,
  type OpenedFile,
  pairedInputsOf,
  splitOpened,
} from "./page-state";
import { useCompareState } from "./url";

/**
 * The /compare page's controller: its URL state, the files opened here (offered by every picker, with the
 * inspector's), the inputs files opened together with rollouts files, and where dropped files go.
 */
export function useComparePage() {
  const [state, setState] = useCompareState();
  const samples = useSamples();
  const session = useSession();
  const opener = useOpenCompareFile();
  const [local, setLocal] = useState<OpenedFile[]>([]);
  // Inputs files opened together with a rollouts file, so every tab verifies that file with them.
  const [companions, setCompanions] = useState<Readonly<Record<string, string>>>({});
  const choices = useMemo(
    () => fileChoices(samples.data ?? [], session?.files ?? [], local, "rollouts"),
    [samples.data, session?.files, local],
  );
  const inputChoices = useMemo(
    () => fileChoices(samples.data ?? [], session?.files ?? [], local, "inputs"),
    [samples.data, session?.files, local],
  );

  const { open } = opener;
  const openFiles = useCallback(
    async (files: readonly File[]): Promise<Opened> => {
      const opened: OpenedFile[] = [];
      // One at a time: the worker reads files in turn anyway, and the order of the picks is kept.
      for (const file of files) {
        const summary = await open(file);
        if (summary) opened.push({ id: summary.id, name: summary.name, kind: summary.kind });
      }
      setLocal((known) => [...opened, ...known.filter((k) => !opened.some((o) => o.id === k.id))]);
      const split = splitOpened(opened);
      const paired = companionsOf(split);
      if (Object.keys(paired).length > 0) setCompanions((known) => ({ ...known, ...paired }));
      return split;
    },
    [open],
  );

  // The inspector's pairing (a folder's task rows) stands unless inputs were opened here with the file.
  const paired = useMemo(() => pairedInputsOf(session?.files ?? []), [session?.files]);
  /** The inputs file a rollouts file is verified with: the choice, its companion, or its bundled sample's. */
  const inputsFor = useCallback(
    (file: string, choice: string | null): string | null =>
      inputsOf(file, choice, { ...paired, ...companions }, samples.data ?? []),
    [paired, companions, samples.data],
  );

  const onDrop = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      const patch = dropPatch(state.tab, await openFiles(files));
      if (patch !== null) setState(patch);
    },
    [state.tab, openFiles, setState],
  );

  return { state, setState, samples, opener, choices, inputChoices, openFiles, inputsFor, onDrop };
}
