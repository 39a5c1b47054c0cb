import { act, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { LoadProgress, RolloutIndexEntry, SessionSummary } from "@/hooks/types";
import { Inspector } from "./Inspector";
import { datasetSummary, entry } from "./test-helpers";

// The page's data layer faked at its hooks: a session the test replaces (as the worker's session events do),
// a progress store it reports into, and counters of what rendered.
const page = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  const progress = {
    current: null as LoadProgress | null,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => progress.current,
    report(next: LoadProgress | null) {
      progress.current = next;
      for (const listener of listeners) listener();
    },
  };
  return {
    session: null as SessionSummary | null,
    rows: [] as readonly RolloutIndexEntry[],
    loading: false,
    progress,
    /** Renders of the inspector itself, and of the open rollout's pane (it asks for its detail once a render). */
    inspectorRenders: 0,
    paneRenders: 0,
    stable: {
      more: () => {},
      prioritize: () => {},
      cancel: () => {},
    },
  };
});

vi.mock("next/navigation", () => ({ useSearchParams: () => new URLSearchParams("") }));
vi.mock("next/link", () => ({
  default: ({ href, children, ...rest }: { href: string; children: ReactNode }) => (
    <a href={href} {...rest}>
      {children}
    </a>
  ),
}));
vi.mock("@/hooks/data", async (actual) => ({
  ...(await actual<typeof import("@/hooks/data")>()),
  useSession: () => {
    page.inspectorRenders++;
    return page.session;
  },
  useLoad: () => ({
    load: async () => null,
    loadFolder: async () => null,
    setRole: async () => null,
    restore: async () => null,
    cancel: page.stable.cancel,
    progress: page.progress,
    loading: page.loading,
    error: null,
  }),
  useSamples: () => ({ data: [], isPending: false }),
  useRecentFiles: () => ({ data: [] }),
  useLineErrors: () => ({ errors: [], total: 0, more: page.stable.more }),
  usePrioritize: () => page.stable.prioritize,
  useRolloutIndex: () => ({ data: page.rows, isSuccess: true, isPlaceholderData: false }),
  useSearch: () => ({ data: undefined, isFetching: false, isPlaceholderData: false }),
  useServers: () => ({ data: [] }),
  useReanalyze: () => ({ reanalyze: async () => {}, pending: false }),
}));
// A served folder's listing is asked for only when the tab shows one: none here.
vi.mock("./use-served-new-files", () => ({ useServedNewFiles: () => ({ added: [], changed: [] }) }));
vi.mock("./use-restore-workspace", () => ({
  useRestoreWorkspace: () => ({ restoring: false, servedError: null, endRestoring: () => {} }),
}));
vi.mock("./use-deep-link", () => ({
  useDeepLink: () => ({
    landing: false,
    goHome: () => {},
    onFiles: () => {},
    onFolder: () => {},
    onSample: () => {},
    onRecent: () => {},
  }),
}));
vi.mock("@/features/run/data", () => ({
  runViewReady: () => false,
  useRunView: () => ({ data: undefined }),
  useWholeFolderView: () => ({ data: undefined }),
  useRunExport: () => async () => null,
  useRunReport: () => async () => null,
}));
vi.mock("./data", () => {
  const rows = { rowAt: () => undefined, onRange: () => {} };
  return {
    useGymMetrics: () => undefined,
    useDetail: () => {
      page.paneRenders++;
      return { isError: false, isSuccess: false, data: undefined };
    },
    useDetailVerification: () => ({ isSuccess: false, data: undefined }),
    useDetailCalls: () => rows,
    useDetailItems: () => rows,
    useDetailBadges: () => ({
      badgeAt: () => undefined,
      onTableCalls: () => {},
      onTranscriptCalls: () => {},
    }),
    useDecisivePage: () => async () => null,
    useRawLine: () => async () => null,
  };
});

/** The worker's session event: one file, `rows` rows read so far (and so many rewards in). */
function sessionEvent(rows: number, patch: Parameters<typeof datasetSummary>[0] = {}): SessionSummary {
  const dataset = datasetSummary({ rows, lines: rows, rewarded: rows, revision: rows, ...patch });
  return { datasets: [dataset], files: [dataset], folder: null };
}

beforeEach(() => {
  page.rows = [entry(1), entry(2)];
  page.session = sessionEvent(2, { indexed: false });
  page.loading = true;
  page.progress.current = null;
  page.inspectorRenders = 0;
  page.paneRenders = 0;
});

describe("the inspector renders what an event concerns", () => {
  it("mounts the workspace in stages: its frame first, then the list, then the open rollout's pane", async () => {
    render(<Inspector />);
    expect(screen.getByTestId("detail-pane")).toBeTruthy();
    expect(screen.queryByTestId("rollout-table")).toBeNull();
    expect(await screen.findByTestId("rollout-table")).toBeTruthy();
    expect(screen.queryByText("Opening line 1…")).toBeNull();
    expect(await screen.findByText("Opening line 1…")).toBeTruthy();
  });

  it("a session event that brings rows and rewards leaves the open rollout's pane as it was", async () => {
    const view = render(<Inspector />);
    await screen.findByText("Opening line 1…");
    const paneRenders = page.paneRenders;
    expect(paneRenders).toBeGreaterThan(0);

    // New rows and rewards: a new summary object (as every event is), a new rows array, row 1 unchanged.
    page.rows = [...page.rows, entry(3)];
    page.session = sessionEvent(3, { indexed: false });
    view.rerender(<Inspector />);
    expect(screen.getByTestId("rollout-table").dataset.rows).toBe("3");
    expect(page.paneRenders).toBe(paneRenders);

    // A new analysis (another server or harness) concerns the pane: it asks for the detail again.
    page.session = sessionEvent(3, { indexed: false, analysis: 2 });
    view.rerender(<Inspector />);
    expect(page.paneRenders).toBeGreaterThan(paneRenders);
  });

  it("a load's progress report re-renders the progress bar, not the page", async () => {
    render(<Inspector />);
    await screen.findByText("Opening line 1…");
    const renders = page.inspectorRenders;
    act(() => page.progress.report({ phase: "reading", file: "run.jsonl", done: 500, total: 1000, rows: 2 }));
    expect(screen.getByText(/reading run\.jsonl/)).toBeTruthy();
    expect(page.inspectorRenders).toBe(renders);
  });
});
