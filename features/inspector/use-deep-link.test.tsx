import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { DatasetSummary, Sample } from "@/hooks/types";
import { datasetSummary } from "./test-helpers";
import { useDeepLink } from "./use-deep-link";
import type { ViewUpdate } from "./use-view-state";
import { DEFAULT_VIEW, parseViewState, type ViewState } from "./view-state";

const SAMPLES: Sample[] = [
  {
    file: "run.jsonl",
    title: "A run",
    description: "inputs in run-inputs.jsonl",
    server: "wa",
    kind: "rollouts",
  },
  { file: "run-inputs.jsonl", title: "Its inputs", description: "", server: null, kind: "inputs" },
];

/** What the page hands the hook; `names`: every open rollouts file's (default: the shown one's). */
interface HookProps {
  readonly view: ViewState;
  readonly dataset: DatasetSummary | null;
  readonly pending: boolean;
  readonly names?: readonly string[];
  /** Files are being opened (the loader's state). */
  readonly loading?: boolean;
}

/** The page around the hook: a URL view state that setView updates, a fake loader, and the shown file. */
function renderLink(url: string, options: { dataset?: DatasetSummary | null; pending?: boolean } = {}) {
  const page = { view: parseViewState(new URLSearchParams(url)) };
  const setView = vi.fn((update: ViewUpdate, _options?: { push?: boolean }) => {
    page.view = { ...page.view, ...(typeof update === "function" ? update(page.view) : update) };
  });
  const loader = {
    load: vi.fn(async () => null),
    loadFolder: vi.fn(async () => null),
    restore: vi.fn(async () => null),
  };
  const onOpened = vi.fn();
  const hook = renderHook(
    ({ view, dataset, pending, names, loading }: HookProps) =>
      useDeepLink({
        view,
        setView,
        dataset,
        rolloutNames: names ?? (dataset === null ? [] : [dataset.name]),
        samples: { isPending: pending, data: pending ? undefined : SAMPLES },
        loader: { ...loader, loading: loading ?? false },
        onOpened,
      }),
    {
      initialProps: {
        view: page.view,
        dataset: options.dataset ?? null,
        pending: options.pending ?? false,
      } as HookProps,
    },
  );
  return { page, setView, loader, onOpened, hook };
}

const FILE = new File(["{}\n"], "run.jsonl");

describe("a link that names a rollout, call and filter", () => {
  it("keeps them for the file opened next while no file is shown (a fresh tab)", () => {
    const { page, loader, onOpened, hook } = renderLink(
      "name=run.jsonl&line=6&call=1&f=agent:a&reward=legacy",
    );
    act(() => hook.result.current.onFiles([FILE]));
    expect(page.view).toMatchObject({ line: 6, call: "1", f: "agent:a", reward: "legacy", sample: null });
    expect(loader.load).toHaveBeenCalledWith([{ kind: "file", file: FILE }]);
    expect(onOpened).toHaveBeenCalled();
  });

  it("drops them when a file is opened over a shown one: they belonged to that file", () => {
    const { page, loader, hook } = renderLink("line=6&call=1&f=agent:a", { dataset: datasetSummary() });
    act(() => hook.result.current.onFiles([FILE]));
    expect(page.view).toEqual(DEFAULT_VIEW);
    expect(loader.load).toHaveBeenCalledTimes(1);
  });

  it("applies the same way to a recent file picked from the landing page", () => {
    const fresh = renderLink("line=6&f=agent:a");
    act(() => fresh.hook.result.current.onRecent("kept-1"));
    expect(fresh.page.view).toMatchObject({ line: 6, f: "agent:a" });
    expect(fresh.loader.restore).toHaveBeenCalledWith(["kept-1"]);
    const over = renderLink("line=6&f=agent:a", { dataset: datasetSummary() });
    act(() => over.hook.result.current.onRecent("kept-1"));
    expect(over.page.view).toEqual(DEFAULT_VIEW);
  });

  it("a folder keeps a link's filter only, when the link names no file", () => {
    const { page, loader, hook } = renderLink("line=6&f=agent:a");
    act(() => hook.result.current.onFolder({ name: "run", entries: [] }));
    expect(page.view).toEqual({ ...DEFAULT_VIEW, f: "agent:a" });
    expect(loader.loadFolder).toHaveBeenCalledWith("run", []);
  });

  it("in a folder, names its file by its path there, found with the folder's name too; hidden files are not the folder's", () => {
    const link = "name=workplace-rollouts/wa_noecho.jsonl&line=16&call=1&f=recorded:0";
    const entries = (...paths: string[]) => paths.map((path) => ({ path, file: FILE }));
    for (const [name, paths, expected] of [
      ["workplace-rollouts", ["wa_noecho.jsonl", "wa_inputs.jsonl"], "wa_noecho.jsonl"],
      [
        "golden",
        ["workplace-rollouts/wa_noecho.jsonl", "ipi-rollouts/ipi_rollouts.jsonl"],
        "workplace-rollouts/wa_noecho.jsonl",
      ],
      [
        "fixtures",
        ["golden/workplace-rollouts/wa_noecho.jsonl"],
        "golden/workplace-rollouts/wa_noecho.jsonl",
      ],
    ] as const) {
      const { page, hook } = renderLink(link);
      act(() => hook.result.current.onFolder({ name, entries: entries(...paths) }));
      expect(page.view).toMatchObject({ name: expected, line: 16, call: "1", f: "recorded:0" });
    }
    // A hidden copy is not the folder's: the link stays as it was, to be set aside once the files are in.
    const hidden = renderLink(link);
    act(() =>
      hidden.hook.result.current.onFolder({
        name: "x",
        entries: entries(".old/workplace-rollouts/wa_noecho.jsonl"),
      }),
    );
    expect(hidden.page.view).toMatchObject({ name: "workplace-rollouts/wa_noecho.jsonl", line: 16 });
    // Over a file shown, whose view the user made: that view belonged to that file.
    const over = renderLink("", { dataset: datasetSummary() });
    over.page.view = { ...over.page.view, line: 16, f: "recorded:0" };
    over.hook.rerender({ view: over.page.view, dataset: datasetSummary(), pending: false });
    act(() =>
      over.hook.result.current.onFolder({ name: "workplace-rollouts", entries: entries("wa_noecho.jsonl") }),
    );
    expect(over.page.view).toEqual(DEFAULT_VIEW);
  });

  it("is set aside once the files are in and its file is not the one shown, and applied only when asked", () => {
    const link = "name=calendar/data/example_rollouts.jsonl&line=5&f=recorded:..0";
    const { page, hook } = renderLink(link);
    act(() => hook.result.current.onFiles([new File(["{}\n"], "example_rollouts.jsonl")]));
    // Still loading: nothing is shown for the link (inspector-state shownDataset), the view waits.
    hook.rerender({ view: page.view, dataset: null, pending: false });
    expect(page.view).toMatchObject({ line: 5, f: "recorded:..0" });
    // Another server's file of the same name shown: not applied, set aside.
    const shown = datasetSummary({ name: "example_rollouts.jsonl" });
    hook.rerender({ view: page.view, dataset: shown, pending: false });
    expect(page.view).toEqual({ ...DEFAULT_VIEW, name: "example_rollouts.jsonl" });
    hook.rerender({ view: page.view, dataset: shown, pending: false });
    expect(hook.result.current.setAside).toMatchObject({
      name: "calendar/data/example_rollouts.jsonl",
      line: 5,
    });
    act(() => hook.result.current.applySetAside());
    expect(page.view).toMatchObject({ name: "example_rollouts.jsonl", line: 5, f: "recorded:..0" });
    hook.rerender({ view: page.view, dataset: shown, pending: false });
    expect(hook.result.current.setAside).toBeNull();
    expect(page.view).toMatchObject({ line: 5 });
  });

  it("two open files its name could mean: set aside, never guessed; applied by a click to the one shown, by its id", () => {
    const { page, hook } = renderLink("name=example_rollouts.jsonl&line=5");
    act(() => hook.result.current.onFiles([FILE, FILE]));
    const shown = datasetSummary({ id: "d-2", name: "example_rollouts.jsonl" });
    const names = ["example_rollouts.jsonl", "example_rollouts.jsonl"];
    hook.rerender({ view: page.view, dataset: shown, pending: false, names });
    expect(page.view.line).toBeNull();
    hook.rerender({ view: page.view, dataset: shown, pending: false, names });
    act(() => hook.result.current.applySetAside());
    expect(page.view).toMatchObject({ file: "d-2", line: 5 });
  });

  it("a view the user made is never a pending link: a line opened later stays", () => {
    const { page, hook } = renderLink("");
    const shown = datasetSummary({ name: "example_rollouts.jsonl" });
    const names = ["example_rollouts.jsonl", "example_rollouts.jsonl"];
    hook.rerender({ view: page.view, dataset: shown, pending: false, names });
    page.view = { ...page.view, line: 7 };
    hook.rerender({ view: page.view, dataset: shown, pending: false, names });
    expect(page.view.line).toBe(7);
    expect(hook.result.current.setAside).toBeNull();
  });

  it("a link set aside is for the files opened next: opening its own file applies it", () => {
    const { page, hook } = renderLink("name=calendar/data/example_rollouts.jsonl&line=5&f=recorded:..0");
    hook.rerender({
      view: page.view,
      dataset: datasetSummary({ name: "wa_rollouts.jsonl" }),
      pending: false,
    });
    hook.rerender({
      view: page.view,
      dataset: datasetSummary({ name: "wa_rollouts.jsonl" }),
      pending: false,
    });
    expect(hook.result.current.setAside).not.toBeNull();
    act(() =>
      hook.result.current.onFolder({
        name: "environments",
        entries: [{ path: "calendar/data/example_rollouts.jsonl", file: FILE }],
      }),
    );
    expect(page.view).toMatchObject({
      name: "calendar/data/example_rollouts.jsonl",
      line: 5,
      f: "recorded:..0",
    });
    const calendar = datasetSummary({ name: "calendar/data/example_rollouts.jsonl" });
    hook.rerender({ view: page.view, dataset: calendar, pending: false });
    expect(page.view).toMatchObject({ line: 5, f: "recorded:..0" });
    expect(hook.result.current.setAside).toBeNull();
  });

  it("its file shown: applies, and the URL names the file as it is named here", () => {
    const { page, hook } = renderLink("name=a/wa_noecho.jsonl&line=16&f=recorded:0");
    hook.rerender({
      view: page.view,
      dataset: datasetSummary({ name: "x/a/wa_noecho.jsonl" }),
      pending: false,
    });
    expect(page.view).toMatchObject({ name: "x/a/wa_noecho.jsonl", line: 16, f: "recorded:0" });
    expect(hook.result.current.setAside).toBeNull();
    // A file chosen by its chip (an id in the URL) keeps the filter the user set.
    const chosen = renderLink("name=a.jsonl&file=d-2&f=recorded:0");
    chosen.hook.rerender({
      view: chosen.page.view,
      dataset: datasetSummary({ name: "b.jsonl" }),
      pending: false,
    });
    expect(chosen.page.view).toMatchObject({ name: "b.jsonl", f: "recorded:0" });
  });
});

describe("a sample link", () => {
  it("opens the sample with its inputs and server once the sample list is known, and only once", () => {
    const { loader, hook, page } = renderLink("sample=run.jsonl", { pending: true });
    expect(loader.load).not.toHaveBeenCalled();
    hook.rerender({ view: page.view, dataset: null, pending: false });
    expect(loader.load).toHaveBeenCalledExactlyOnceWith(
      [
        { kind: "url", url: "/samples/run.jsonl", name: "run.jsonl" },
        { kind: "url", url: "/samples/run-inputs.jsonl", name: "run-inputs.jsonl" },
      ],
      "wa",
    );
    hook.rerender({ view: page.view, dataset: datasetSummary(), pending: false });
    expect(loader.load).toHaveBeenCalledTimes(1);
  });

  it("opens nothing for a name that is not a bundled sample", () => {
    const { loader } = renderLink("sample=..%2Fsecret.jsonl");
    expect(loader.load).not.toHaveBeenCalled();
  });

  it("Back from the sample (the URL loses it) shows the landing page; the next sample leaves it", () => {
    const { hook } = renderLink("sample=run.jsonl");
    const shown = datasetSummary();
    hook.rerender({
      view: parseViewState(new URLSearchParams("sample=run.jsonl")),
      dataset: shown,
      pending: false,
    });
    expect(hook.result.current.landing).toBe(false);
    hook.rerender({ view: DEFAULT_VIEW, dataset: shown, pending: false });
    expect(hook.result.current.landing).toBe(true);
    // A file chosen on the chips there shows it.
    hook.rerender({ view: { ...DEFAULT_VIEW, file: shown.id }, dataset: shown, pending: false });
    expect(hook.result.current.landing).toBe(false);
    hook.rerender({ view: DEFAULT_VIEW, dataset: shown, pending: false });
    act(() => hook.result.current.onFiles([FILE]));
    hook.rerender({ view: DEFAULT_VIEW, dataset: shown, pending: false });
    expect(hook.result.current.landing).toBe(false);
  });
});

describe("the title link and the shown file's name", () => {
  it("the title link shows the landing page with a fresh view, as a history entry", () => {
    const { hook, setView } = renderLink("line=3", { dataset: datasetSummary() });
    const preventDefault = vi.fn();
    act(() => hook.result.current.goHome({ preventDefault }));
    expect(preventDefault).toHaveBeenCalled();
    expect(setView).toHaveBeenLastCalledWith(DEFAULT_VIEW, { push: true });
    // The URL it wrote: the landing page.
    const shown = datasetSummary();
    hook.rerender({ view: DEFAULT_VIEW, dataset: shown, pending: false });
    expect(hook.result.current.landing).toBe(true);
    // The file chips stay on the landing page: one chosen shows its file (the page stayed on the landing).
    hook.rerender({ view: { ...DEFAULT_VIEW, file: shown.id }, dataset: shown, pending: false });
    expect(hook.result.current.landing).toBe(false);
  });

  it("the URL names the shown file, so the link says which file to open elsewhere", () => {
    const { page } = renderLink("", { dataset: datasetSummary({ name: "shown.jsonl" }) });
    expect(page.view.name).toBe("shown.jsonl");
    expect(page.view.file).toBeNull();
  });

  it("a served folder's file shown by default is named by its path too, not while files are being opened", () => {
    const served = datasetSummary({ name: "run/data/a.jsonl", ref: "served:data/a.jsonl" });
    const { page } = renderLink("", { dataset: served });
    expect(page.view.file).toBe("served:data/a.jsonl");
    // Files opened over it: the shown file is still the served one until they are in; it is not pinned.
    const opening = renderLink("", { dataset: null });
    opening.hook.rerender({ view: opening.page.view, dataset: served, pending: false, loading: true });
    expect(opening.page.view.file).toBeNull();
    expect(opening.page.view.name).toBe("run/data/a.jsonl");
  });
});
