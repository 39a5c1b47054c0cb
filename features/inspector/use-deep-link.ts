"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { LoadState } from "@/hooks/data";
import type { PickedFolder } from "@/hooks/folder-files";
import { bundledSample } from "@/hooks/samples";
import type { DatasetSummary, Sample } from "@/hooks/types";
import { isHiddenPath } from "@/lib/folder";
import { servedPathOf } from "@/worker/protocol";
import { sampleSources } from "./inspector-state";
import type { SetView } from "./use-view-state";
import {
  DEFAULT_VIEW,
  linkMissesShown,
  linkTarget,
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
  /** Every open rollouts file's name: a link's name must mean the shown one among them (view-state linkedName). */
  readonly rolloutNames: readonly string[];
  readonly samples: { readonly isPending: boolean; readonly data: readonly Sample[] | undefined };
  readonly loader: Pick<LoadState, "load" | "loadFolder" | "restore" | "loading">;
  /** Called when files are opened by hand (a restored workspace is replaced). */
  readonly onOpened: () => void;
}): DeepLink {
  const { view, setView, dataset, rolloutNames, samples, loader, onOpened } = options;
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
  // A file chosen on the chips (they stay on screen) or Back to a rollout leaves it: the URL then names them.
  const [home, setHome] = useState(false);
  const landing =
    (home || (loadedSample.current !== null && view.sample === null)) &&
    view.file === null &&
    view.line === null;
  useEffect(() => {
    if (view.sample !== null) setHome(false);
  }, [view.sample]);

  // The URL names the shown file, so a link says which file to open in a tab that does not hold it. A link
  // (the view the page opened with, or kept when files were opened) is pending until a file is shown: then it
  // applies when that file is the one its name means among the rollouts files open, else it is set aside (a
  // folder without it, a file of another name, two of Gym's many example_rollouts.jsonl): the page says so
  // and offers to apply it to the file shown. A view the user made is never pending.
  const pending = useRef(linkTarget(view));
  const [setAside, setSetAside] = useState<ViewState | null>(null);
  const setAsideNow = useRef<ViewState | null>(null);
  setAsideNow.current = setAside;
  const names = useRef(rolloutNames);
  names.current = rolloutNames;
  useEffect(() => {
    if (dataset === null || landing) return;
    if (pending.current) {
      pending.current = false;
      if (linkMissesShown(view, dataset.name, names.current)) {
        setSetAside(view);
        setView({ ...DEFAULT_VIEW, reward: view.reward, name: dataset.name });
        return;
      }
    }
    // A served folder's file shown by default is named by its path too (`file=served:…`): the address then
    // reopens the folder in another tab, where `name=` alone found no file (the tab's files are its own).
    // Not while files are being opened (the shown file is still the one they replace) nor for a sample link.
    const served =
      view.file === null && view.sample === null && !loader.loading && servedPathOf(dataset.ref) !== null;
    if (view.name !== dataset.name || served)
      setView(served ? { name: dataset.name, file: dataset.ref } : { name: dataset.name });
  }, [dataset, landing, view, setView, loader.loading]);
  const applySetAside = useCallback(() => {
    if (setAside === null || dataset === null) return;
    // The file shown, by its ref (its id, or a served file's path): two files may share its name.
    setView({ ...setAside, sample: null, file: dataset.ref, name: dataset.name });
    setSetAside(null);
  }, [setAside, dataset, setView]);
  const dismissSetAside = useCallback(() => setSetAside(null), []);

  // Read when files are opened, not when the handlers are made: fast picks never see a stale answer.
  const showing = useRef(false);
  showing.current = dataset !== null && !landing;
  /**
   * Sets the view files open with: a link set aside is for the files opened next (the one it names, read in
   * its banner), as a link is in a tab with no file; else the view as it is (`make` keeps it while no file is
   * shown). A kept link is pending until a file is shown.
   */
  const openWith = useCallback(
    (make: (state: ViewState, showing: boolean) => ViewState) => {
      const link = setAsideNow.current;
      loadedSample.current = null;
      setHome(false);
      setSetAside(null);
      setView((state) => {
        const next = link === null ? make(state, showing.current) : make(link, false);
        pending.current = linkTarget(next);
        return next;
      });
    },
    [setView],
  );

  const onFiles = useCallback(
    (files: File[]) => {
      onOpened();
      openWith(viewForOpenedFiles);
      void load(files.map((file) => ({ kind: "file" as const, file })));
    },
    [openWith, onOpened, load],
  );
  const onRecent = useCallback(
    (id: string) => {
      onOpened();
      openWith(viewForOpenedFiles);
      void restore([id]);
    },
    [openWith, onOpened, restore],
  );
  const onFolder = useCallback(
    (folder: PickedFolder) => {
      onOpened();
      // A link's rollout, call and filter apply to its file in the folder, as to a file opened alone; the
      // hidden files the worker leaves out are not the folder's.
      const paths = folder.entries.map((entry) => entry.path).filter((path) => !isHiddenPath(path));
      openWith((state, showing) => viewForOpenedFolder(state, showing, folder.name, paths));
      void loadFolder(folder.name, folder.entries);
    },
    [openWith, onOpened, loadFolder],
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
