"use client";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useDatasetFile, useSession } from "@/hooks/data";
import { useServedFolder } from "@/hooks/use-served-folder";
import { configRoutes } from "@/lib/folder";
import type { Policy } from "@/lib/identity/types";
import { DEFAULT_TIMEOUT_MS } from "@/lib/live";
import { chooseServer, lineConfigs } from "@/lib/verify";
import { servedPathOf } from "@/worker/protocol";
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
  const routes = useMemo(
    () => (linkedFile === null ? null : configRoutes(linkedFile.gymConfigs)),
    [linkedFile],
  );
  // `ng_run`'s configs when no server answers: the folder's configs that route the chosen line, as the
  // line's no_verifier sentence names them (lib/verify lineConfigs); none for a file without a folder.
  const startConfigs =
    linkedFile === null || current === null ? [] : lineConfigs(linkedFile.configs, routes, current.value);

  // The verifying server of a rollout of the linked folder's file: its configs route it, as the inspector's
  // rows are routed (lib/verify chooseServer); a file picked here, or a line they do not route: its own.
  // Once per file: the rollout list and a run of thousands of checks read it.
  const servers = useMemo(
    () =>
      new Map(
        routes === null
          ? []
          : rollouts.map((r) => [r, chooseServer(r.value, { config: routes }).server ?? undefined] as const),
      ),
    [rollouts, routes],
  );
  const serverOf = useCallback((rollout: LiveRollout) => servers.get(rollout), [servers]);
  const start = (which: "one" | "all") => {
    if (!target.ok) return;
    const list = which === "all" ? rollouts : current ? [current] : [];
    setSelected(null);
    void run.start(target.target, list, POLICIES[policy], serverOf);
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
    servedError: served.error,
    servedOpen: useSession()?.folder?.served === true,
    target,
    rollouts,
    current,
    shown,
    start,
    startConfigs,
  };
}
