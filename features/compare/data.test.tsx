import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useCompareFile } from "./data";
import type { CompareFileSummary } from "./protocol";
import { fileSummary } from "./test-helpers";

// The worker and the session, faked at the hooks' boundary: the worker stores a sample the first time it
// is asked for it; the session lists the stored files only when the test says it has caught up.
const fake = vi.hoisted(() => ({
  files: [] as { id: string; name: string; analysis: number; bytes?: number }[],
  requests: [] as string[],
  /** The dataset id the worker stores a sample under (a sample opened again is stored anew). */
  stores: new Map<string, string>(),
}));
vi.mock("@/hooks/data", () => ({
  useSession: () => ({ datasets: [], files: fake.files, folder: null }),
}));
vi.mock("@/hooks/data-client", () => ({
  useDataClient: () => ({
    request: async (_kind: "file", params: { ref: string }) => {
      fake.requests.push(params.ref);
      const stored = fake.files.find((f) => f.id === params.ref || f.name === params.ref);
      return {
        ...fileSummary({ id: `id-${params.ref}`, name: params.ref }),
        id: fake.stores.get(params.ref) ?? `id-${params.ref}`,
        analysis: stored?.analysis ?? 0,
        bytes: stored?.bytes ?? 0,
      };
    },
  }),
}));

const SAMPLES = [
  { file: "a.jsonl", title: "A", description: "", kind: "rollouts" as const },
  { file: "b.jsonl", title: "B", description: "", kind: "rollouts" as const },
];

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

/** useCompareFile for `ref()`, with the summary of every render, in order. */
function renderFile(ref: () => string) {
  const seen: (CompareFileSummary | undefined)[] = [];
  const hook = renderHook(
    () => {
      const query = useCompareFile(ref(), SAMPLES);
      seen.push(query.data);
      return query;
    },
    { wrapper: wrapper() },
  );
  return { ...hook, seen };
}

beforeEach(() => {
  fake.files = [];
  fake.requests = [];
  fake.stores.clear();
});

describe("useCompareFile", () => {
  it("keeps a sample's summary while the session catches up with the file its first request stored", async () => {
    const { result, rerender, seen: summaries } = renderFile(() => "a.jsonl");
    const seen = () => summaries.map((summary) => summary?.id);
    await waitFor(() => expect(result.current.data?.id).toBe("id-a.jsonl"));
    const first = seen().indexOf("id-a.jsonl");

    // The session now lists the stored file: the key names it, and the summary is asked for again.
    fake.files = [{ id: "id-a.jsonl", name: "a.jsonl", analysis: 0 }];
    rerender();
    await waitFor(() => expect(fake.requests).toEqual(["a.jsonl", "a.jsonl"]));
    await waitFor(() => expect(result.current.isFetching).toBe(false));
    expect(seen().slice(first)).not.toContain(undefined);
    expect(result.current.data?.id).toBe("id-a.jsonl");
  });

  it("asks again when what the file is verified with changes, keeping its summary meanwhile", async () => {
    fake.files = [{ id: "id-a.jsonl", name: "a.jsonl", analysis: 0 }];
    const { result, rerender, seen: summaries } = renderFile(() => "a.jsonl");
    const seen = () => summaries.map((summary) => summary?.analysis);
    await waitFor(() => expect(result.current.data?.analysis).toBe(0));
    const first = seen().indexOf(0);
    // The server was chosen again in the inspector: the session's analysis revision moves.
    fake.files = [{ id: "id-a.jsonl", name: "a.jsonl", analysis: 1 }];
    rerender();
    await waitFor(() => expect(result.current.data?.analysis).toBe(1));
    expect(seen().slice(first)).not.toContain(undefined);
  });

  it("asks again when a followed file grew (cli view), keeping its summary meanwhile", async () => {
    fake.files = [{ id: "id-a.jsonl", name: "a.jsonl", analysis: 0, bytes: 100 }];
    const { result, rerender, seen: summaries } = renderFile(() => "a.jsonl");
    await waitFor(() => expect(result.current.data?.bytes).toBe(100));
    const first = summaries.length;
    fake.files = [{ id: "id-a.jsonl", name: "a.jsonl", analysis: 0, bytes: 250 }];
    rerender();
    await waitFor(() => expect(result.current.data?.bytes).toBe(250));
    expect(summaries.slice(first)).not.toContain(undefined);
  });

  it("does not keep a sample's summary once its name names a newer stored file", async () => {
    fake.files = [{ id: "id-a.jsonl", name: "a.jsonl", analysis: 0 }];
    const { result, rerender, seen: summaries } = renderFile(() => "a.jsonl");
    const seen = () => summaries.map((summary) => summary?.id);
    await waitFor(() => expect(result.current.data?.id).toBe("id-a.jsonl"));
    const reopened = seen().length;
    fake.stores.set("a.jsonl", "id-a2");
    fake.files = [...fake.files, { id: "id-a2", name: "a.jsonl", analysis: 0 }];
    rerender();
    await waitFor(() => expect(result.current.data?.id).toBe("id-a2"));
    expect(seen().slice(reopened)).toContain(undefined);
  });

  it("never shows another file's summary while the one now named loads", async () => {
    let ref = "a.jsonl";
    const { result, rerender, seen: summaries } = renderFile(() => ref);
    const seen = () => summaries.map((summary) => summary?.id);
    await waitFor(() => expect(result.current.data?.id).toBe("id-a.jsonl"));
    const switched = seen().length;
    ref = "b.jsonl";
    rerender();
    await waitFor(() => expect(result.current.data?.id).toBe("id-b.jsonl"));
    expect(seen().slice(switched)).not.toContain("id-a.jsonl");
  });
});
