import { readFileSync } from "node:fs";
import { join } from "node:path";
import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type GymConfig, readGymConfig } from "@/lib/folder";
import { useLivePage } from "./use-live-page";

// The page's data hooks and its URL, faked at their boundary.
const fake = vi.hoisted(() => ({
  params: new URLSearchParams(),
  linked: {
    data: undefined as
      | { file: File; path: string; configs: readonly string[]; gymConfigs: readonly GymConfig[] }
      | null
      | undefined,
    isSuccess: false,
  },
  rollouts: [
    {
      line: 3,
      value: { agent_ref: { name: "undeclared_agent" }, response: { output: [] } },
      environment: null,
      calls: 1,
    },
    {
      line: 8,
      value: { agent_ref: { name: "iheval_simple_agent" }, response: { output: [] } },
      environment: null,
      calls: 2,
    },
  ],
  mutate: vi.fn(),
  start: vi.fn(async (..._args: unknown[]) => undefined),
  served: { reading: false, error: null as string | null },
  named: [] as boolean[],
  asked: [] as (string | null)[],
  session: null as { files: { id: string; ref: string }[] } | null,
  /** The inspector's rows of the linked file (their verifying servers). */
  index: [] as { line: number; server: string | null }[],
  fetched: [] as number[],
}));
vi.mock("next/navigation", () => ({ useSearchParams: () => fake.params }));
vi.mock("@/hooks/data", () => ({
  useSession: () => fake.session,
  useDatasetFile: (dataset: string | null) => {
    fake.asked.push(dataset);
    return fake.linked;
  },
  useRolloutIndex: (summary: unknown) => ({ data: summary === null ? undefined : fake.index }),
  useLineOptions: () => ({ data: undefined }),
  useFetchLineOptions: (summary: unknown) => async (line: number) => {
    fake.fetched.push(line);
    return summary === null ? null : { server: "iheval", input: { task: line } };
  },
}));
vi.mock("@/hooks/use-served-folder", () => ({
  useServedFolder: (named: boolean) => {
    fake.named.push(named);
    return fake.served;
  },
}));
vi.mock("./data", () => ({
  liveTarget: (url: string, timeoutMs: number) => ({ ok: true, target: { baseUrl: url, timeoutMs } }),
  useLiveConnect: () => ({ data: undefined, isPending: false, error: null, mutate: vi.fn() }),
  useLiveRollouts: () => ({
    data: { name: "run.jsonl", rollouts: fake.rollouts, errors: [], truncated: false },
    mutate: fake.mutate,
  }),
  useLiveRun: () => ({ state: { running: false, checks: [] }, start: fake.start, cancel: vi.fn() }),
}));

const LINKED = new File(["{}\n"], "run.jsonl");

beforeEach(() => {
  fake.params = new URLSearchParams();
  fake.linked = { data: undefined, isSuccess: false };
  fake.mutate.mockClear();
  fake.start.mockClear();
  fake.served = { reading: false, error: null };
  fake.named = [];
  fake.asked = [];
  fake.session = null;
  fake.index = [];
  fake.fetched = [];
});

describe("useLivePage", () => {
  it("a link naming a served folder's file by path asks for it once the folder is read (a reload, a new tab)", () => {
    fake.params = new URLSearchParams("dataset=served%3Adata%2Frun.jsonl&line=8");
    fake.served = { reading: true, error: null };
    const { rerender } = renderHook(() => useLivePage());
    expect(fake.named.at(-1)).toBe(true);
    expect(fake.asked.at(-1)).toBeNull();
    fake.served = { reading: false, error: null };
    rerender();
    expect(fake.asked.at(-1)).toBe("served:data/run.jsonl");
    // A dataset id names no served file: nothing to read for it.
    fake.params = new URLSearchParams("dataset=d-1&line=8");
    rerender();
    expect(fake.named.at(-1)).toBe(false);
  });

  it("a link from the inspector opens its file once, on the line it names", () => {
    fake.params = new URLSearchParams("dataset=d1&line=8");
    const { result, rerender } = renderHook(() => useLivePage());
    expect(fake.mutate).not.toHaveBeenCalled();
    fake.linked = {
      data: { file: LINKED, path: "runs/run.jsonl", configs: [], gymConfigs: [] },
      isSuccess: true,
    };
    rerender();
    expect(fake.mutate).toHaveBeenCalledExactlyOnceWith(LINKED);
    expect(result.current.current?.line).toBe(8);
    rerender();
    expect(fake.mutate).toHaveBeenCalledTimes(1);
  });

  it("replays the chosen rollout under the chosen policies, or every rollout", () => {
    const { result } = renderHook(() => useLivePage());
    expect(result.current.current?.line).toBe(3);
    act(() => result.current.setPolicy("legacy"));
    act(() => result.current.start("one"));
    expect(fake.start).toHaveBeenLastCalledWith(
      expect.anything(),
      [fake.rollouts[0]],
      ["legacy"],
      expect.any(Function),
    );
    act(() => result.current.setPolicy("both"));
    act(() => result.current.start("all"));
    expect(fake.start).toHaveBeenLastCalledWith(
      expect.anything(),
      fake.rollouts,
      ["contract", "legacy"],
      expect.any(Function),
    );
  });

  it("a file picked here starts from its first rollout", () => {
    const { result } = renderHook(() => useLivePage());
    act(() => result.current.setLine(8));
    expect(result.current.current?.line).toBe(8);
    act(() => result.current.pickFile(LINKED));
    expect(fake.mutate).toHaveBeenCalledWith(LINKED);
    expect(result.current.current?.line).toBe(3);
  });

  it("the deadline typed in reaches the target", () => {
    const { result } = renderHook(() => useLivePage());
    act(() => result.current.setTimeoutMs("2500"));
    expect(result.current.target).toMatchObject({ ok: true, target: { timeoutMs: 2500 } });
  });

  it("ng_run names the folder's configs that route the chosen line, and none for a file picked here", async () => {
    // iheval's folder: two configs, its agent declared by one of them.
    const dir = join(import.meta.dirname, "../../fixtures/gym-examples/resources_servers/iheval/configs");
    const configs = ["configs/iheval.yaml", "configs/iheval_serve.yaml"];
    const gymConfigs = configs.flatMap((path) => {
      const read = readGymConfig(path, readFileSync(join(dir, path.slice("configs/".length)), "utf8"));
      return read.ok ? [read.config] : [];
    });
    expect(gymConfigs).toHaveLength(2);
    fake.params = new URLSearchParams("dataset=d1&line=8");
    fake.linked = { data: { file: LINKED, path: "data/run.jsonl", configs, gymConfigs }, isSuccess: true };
    fake.session = { files: [{ id: "d1", ref: "d1" }] };
    fake.index = [
      { line: 3, server: null },
      { line: 8, server: "iheval" },
    ];
    const { result } = renderHook(() => useLivePage());
    expect(result.current.current?.line).toBe(8);
    expect(result.current.startConfigs).toEqual(["configs/iheval.yaml"]);
    // Each rollout is listed with the server the inspector's row has and checked with the line's options
    // the inspector verified it with (its server, its paired task row), asked of the data worker.
    const [line3, line8] = fake.rollouts;
    expect(line8 && result.current.serverOf(line8)).toBe("iheval");
    expect(line3 && result.current.serverOf(line3)).toBeUndefined();
    act(() => result.current.start("one"));
    const optionsOf = fake.start.mock.calls[0]?.[3];
    if (typeof optionsOf !== "function") throw new Error("no options for the run");
    expect(await optionsOf(line8)).toEqual({ server: "iheval", input: { task: 8 } });
    expect(fake.fetched).toEqual([8]);
    // A line the configs do not route (an agent they do not declare): every config of the folder.
    act(() => result.current.setLine(3));
    expect(result.current.startConfigs).toEqual(configs);
    act(() => result.current.pickFile(new File(["{}\n"], "other.jsonl")));
    expect(result.current.startConfigs).toEqual([]);
    expect(line8 && result.current.serverOf(line8)).toBeUndefined();
  });
});
