"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { LoadState } from "@/hooks/data";
import type { PickedFolder } from "@/hooks/folder-files";
import { bundledSample } from "@/hooks/samples";
import type { DatasetSummary, Sample } from "@/hooks/types";
import { isHiddenPath } from "@/lib/folder";
import { sampleSources } from "./inspector-state";
import type { SetView } from "./use-view-state";
import {
  DEFAULT_VIEW,
  linkMissesShown,
  type ViewState,
  viewForOpenedFiles,
  viewForOpenedFolder,
} from "./view-state";

export interface DeepLink {
  /** The landing page is shown (after Back from a sample, or the title link), though the worker holds files. */
  readonly landing: boolean;
  /** The title link: back to the landing page with a fresh view (a history entry). */
  goHome(event: { preventDefault(): void }): void;
  onFiles(files: File[]): void;
  onFolder(folder: PickedFolder): void;
  onSample(sample: Sample): void;
  /** A recent file (the landing page's list), by its kept id. */
  onRecent(id: string): void;
  /** A link whose file is not the one shown (its view as the link had it), set aside until applied or dismissed. */
  readonly setAside: ViewState | null;
  /** Applies the set-aside link's rollout, call and filter to the file shown. */
  applySetAside(): void;
  dismissSetAside(): void;
}

/**
 * The page's links and what opening files does to them: a `?sample=` link opens that bundled sample once the
 * sample list is known; a link naming a rollout, call or filter keeps them for the file opened next while
 * none is shown (a file opened over a shown one starts a fresh view); the URL names the shown file, so a
 * link says which file to open in a tab that does not hold it.
 */
export function useDeepLink(options: {
  readonly view: ViewState;
  readonly setView: SetView;
  /** The shown rollouts file (null: none). */
  readonly dataset: DatasetSummary | null;
  readonly samples: { readonly isPending: boolean; readonly data: readonly Sample[] | undefined };
  readonly loader: Pick<LoadState, "load" | "loadFolder" | "restore">;
  /** Called when files are opened by hand (a restored workspace is replaced). */
  readonly onOpened: () => void;
}): DeepLink {
  const { view, setView, dataset, samples, loader, onOpened } = options;
  const { load, loadFolder, restore } = loader;

  // Open the sample named in the URL (a deep link), once the sample list is known.
  const loadedSample = useRef<string | null>(null);
  useEffect(() => {
    const sample = view.sample;
    if (!sample || loadedSample.current === sample || samples.isPending) return;
    loadedSample.current = sample;
    const entry = bundledSample(sample, samples.data ?? []);
    if (entry === null) return;
    void load(sampleSources(entry.file, samples.data ?? []), entry.server ?? null);
  }, [view.sample, samples.isPending, samples.data, load]);

  // The landing page is shown again after Back from a sample (the URL loses ?sample=) or the title link,
  // though the worker still holds the file: a later sample or file replaces it.
  const [home, setHome] = useState(false);
  const landing = home || (loadedSample.current !== null && view.sample === null);
  useEffect(() => {
    if (view.sample !== null) setHome(false);
  }, [view.sample]);

  // The URL names the shown file, so a link says which file to open in a tab that does not hold it. A link
  // whose file is not the one shown once the files are in (a folder without it, a file of another name, one
  // of Gym's many example_rollouts.jsonl) is set aside: the page says so and offers to apply it here.
  const [setAside, setSetAside] = useState<ViewState | null>(null);
  useEffect(() => {
    if (dataset === null || landing || view.name === dataset.name) return;
    if (linkMissesShown(view, dataset.name)) {
      setSetAside(view);
      setView({ ...DEFAULT_VIEW, reward: view.reward, name: dataset.name });
    } else setView({ name: dataset.name });
  }, [dataset, landing, view, setView]);
  const applySetAside = useCallback(() => {
    if (setAside === null || dataset === null) return;
    setView({ ...setAside, sample: null, file: null, name: dataset.name });
    setSetAside(null);
  }, [setAside, dataset, setView]);
  const dismissSetAside = useCallback(() => setSetAside(null), []);

  // Read when files are opened, not when the handlers are made: fast picks never see a stale answer.
  const showing = useRef(false);
  showing.current = dataset !== null && !landing;
  const leaveLanding = useCallback(() => {
    loadedSample.current = null;
    setHome(false);
    setSetAside(null);
  }, []);

  const onFiles = useCallback(
    (files: File[]) => {
      leaveLanding();
      onOpened();
      setView((state) => viewForOpenedFiles(state, showing.current));
      void load(files.map((file) => ({ kind: "file" as const, file })));
    },
    [leaveLanding, onOpened, load, setView],
  );
  const onRecent = useCallback(
    (id: string) => {
      leaveLanding();
      onOpened();
      setView((state) => viewForOpenedFiles(state, showing.current));
      void restore([id]);
    },
    [leaveLanding, onOpened, restore, setView],
  );
  const onFolder = useCallback(
    (folder: PickedFolder) => {
      leaveLanding();
      onOpened();
      // A link's rollout, call and filter apply to its file in the folder, as to a file opened alone; the
      // hidden files the worker leaves out are not the folder's.
      const paths = folder.entries.map((entry) => entry.path).filter((path) => !isHiddenPath(path));
      setView((state) => viewForOpenedFolder(state, showing.current, folder.name, paths));
      void loadFolder(folder.name, folder.entries);
    },
    [leaveLanding, onOpened, loadFolder, setView],
  );
  const onSample = useCallback(
    (sample: Sample) => {
      onOpened();
      setSetAside(null);
      setView({ ...DEFAULT_VIEW, sample: sample.file }, { push: true });
    },
    [onOpened, setView],
  );
  const goHome = useCallback(
    (event: { preventDefault(): void }) => {
      event.preventDefault();
      setHome(true);
      setSetAside(null);
      setView({ ...DEFAULT_VIEW }, { push: true });
    },
    [setView],
  );
  return {
    landing,
    goHome,
    onFiles,
    onFolder,
    onSample,
    onRecent,
    setAside: dataset === null ? null : setAside,
    applySetAside,
    dismissSetAside,
  };
}
