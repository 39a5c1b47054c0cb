"use client";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  useDatasetFile,
  useFetchLineOptions,
  useLineOptions,
  useRolloutIndex,
  useSession,
} from "@/hooks/data";
import { useServedFolder } from "@/hooks/use-served-folder";
import { configRoutes } from "@/lib/folder";
import type { Policy } from "@/lib/identity/types";
import { DEFAULT_TIMEOUT_MS, type LineOptions } from "@/lib/live";
import { lineConfigs } from "@/lib/verify";
import { servedPathOf, storedFileOf } from "@/worker/protocol";
import { type LiveRollout, liveTarget, useLiveConnect, useLiveRollouts, useLiveRun } from "./data";
import {
  currentRollout,
  linkedLine,
  POLICIES,
  type PolicyChoice,
  readTimeout,
  shownCheck,
} from "./live-state";

/** The port gym_server.sh is usually started on in the README. */
const DEFAULT_URL = "http://127.0.0.1:8765";

/**
 * The /live page's controller: the server and deadline typed in, the file and rollout chosen (a link from
 * the inspector names both), the policies a run checks, and the check shown.
 */
export function useLivePage() {
  const [url, setUrl] = useState(DEFAULT_URL);
  const [timeoutMs, setTimeoutMs] = useState(String(DEFAULT_TIMEOUT_MS));
  const [policy, setPolicy] = useState<PolicyChoice>("both");
  const [line, setLine] = useState<number | null>(null);
  const [selected, setSelected] = useState<{ line: number; policy: Policy } | null>(null);
  const connect = useLiveConnect();
  const file = useLiveRollouts();
  const run = useLiveRun();

  // A link from the inspector (an unverified line: no verifier here for its server) names the file and
  // line: the file is taken from the data worker, already chosen.
  const params = useSearchParams();
  const linkedDataset = params.get("dataset");
  // A served folder's file, named by its path, is there once the folder is read (a reload, a new tab).
  const served = useServedFolder(linkedDataset !== null && servedPathOf(linkedDataset) !== null);
  const linked = useDatasetFile(served.reading ? null : linkedDataset);
  const lineParam = params.get("line");
  const taken = useRef(false);
  // Whether the file shown is the linked one (a file picked here has no folder configs).
  const [showsLinked, setShowsLinked] = useState(false);
  const { mutate: pick } = file;
  useEffect(() => {
    if (taken.current || !linked.data) return;
    taken.current = true;
    const named = linkedLine(lineParam);
    if (named !== null) setLine(named);
    setShowsLinked(true);
    pick(linked.data.file);
  }, [linked.data, lineParam, pick]);

  const timeout = readTimeout(timeoutMs);
  const target = useMemo(() => liveTarget(url, timeout), [url, timeout]);
  const rollouts = file.data?.rollouts ?? [];
  const current = currentRollout(rollouts, line);
  const shown = shownCheck(run.state.checks, selected);
  const linkedFile = showsLinked ? (linked.data ?? null) : null;
  // The linked file as the inspector has it: its lines are checked as its rows were verified (the server
  // its folder's configs route them to, the task row each paired with), never decided again here.
  const session = useSession();
  const summary = linkedFile === null ? null : (storedFileOf(linkedDataset, session?.files ?? []) ?? null);
  const index = useRolloutIndex(summary);
  const servers = useMemo(
    () => new Map((index.data ?? []).map((row) => [row.line, row.server])),
    [index.data],
  );
  const serverOf = useCallback((rollout: LiveRollout) => servers.get(rollout.line) ?? undefined, [servers]);
  const currentOptions = useLineOptions(summary, current?.line ?? null).data ?? null;
  const fetchOptions = useFetchLineOptions(summary);
  const optionsOf = useCallback(
    async (rollout: LiveRollout): Promise<LineOptions> => {
      try {
        return (await fetchOptions(rollout.line)) ?? {};
      } catch (error) {
        // The page's own data worker, not the Gym server: said as such.
        const why = error instanceof Error ? error.message : String(error);
        throw new Error(`how the inspector verifies line ${rollout.line} could not be read here: ${why}`);
      }
    },
    [fetchOptions],
  );
  const routes = useMemo(
    () => (linkedFile === null ? null : configRoutes(linkedFile.gymConfigs)),
    [linkedFile],
  );
  // `ng_run`'s configs when no server answers: the folder's configs that route the chosen line, as the
  // line's no_verifier sentence names them (lib/verify lineConfigs); none for a file without a folder.
  const startConfigs =
    linkedFile === null || current === null
      ? []
      : lineConfigs(linkedFile.configs, routes, current.value, currentOptions?.input);

  const start = (which: "one" | "all") => {
    if (!target.ok) return;
    const list = which === "all" ? rollouts : current ? [current] : [];
    setSelected(null);
    void run.start(target.target, list, POLICIES[policy], optionsOf);
  };
  /** A file picked here replaces the linked one, from its first rollout. */
  const pickFile = (picked: File) => {
    setLine(null);
    setShowsLinked(false);
    file.mutate(picked);
  };

  const form = { url, setUrl, timeoutMs, setTimeoutMs, policy, setPolicy, setLine, setSelected, pickFile };
  return {
    ...form,
    connect,
    file,
    run,
    linkedDataset,
    linked,
    serverOf,
    currentOptions,
    servedError: served.error,
    servedOpen: session?.folder?.served === true,
    target,
    rollouts,
    current,
    shown,
    start,
    startConfigs,
  };
}
