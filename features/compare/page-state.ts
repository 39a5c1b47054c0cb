/**
 * The /compare page's decisions, as plain functions (no React): which files its pickers offer, which inputs
 * file goes with an opened rollouts file, and where dropped or picked files go. use-compare-page.ts applies
 * them; they are unit tested without rendering.
 */
import { fileLabels } from "@/hooks/file-labels";
import type { Sample } from "@/hooks/samples";
import { folderQualifiedName } from "@/worker/protocol";
import type { FileChoice } from "./common";
import type { CompareFileSummary, RepairServerInput } from "./protocol";
import type { ServerDraft } from "./RepairPanel";
import { type CompareState, parseToolList, resolveInputs } from "./state";

export type FileKind = CompareFileSummary["kind"];

export interface OpenedFile {
  /** The stored file's dataset id: the FileRef the pickers and the URL keep. */
  readonly id: string;
  readonly name: string;
  readonly kind: FileKind;
}

/** Files opened together (their FileRefs), split by what the worker found them to be. */
export interface Opened {
  readonly rollouts: readonly string[];
  readonly inputs: readonly string[];
}

/** A stored file as the session lists it. */
interface StoredFile extends OpenedFile {
  readonly indexed: boolean;
  /** The opened folder the file came from: its name leads the label (two folders hold data/example.jsonl). */
  readonly folder_name?: string | null;
  /** How links name it (DatasetSummary.ref: a served folder's file by its path), else its id. */
  readonly ref?: string;
}

/**
 * Choices for a kind of file picker: files opened in this tab (on this page or in the inspector: one
 * store), by dataset id (a served folder's file by its path: DatasetSummary.ref), so two files of the same
 * name are two choices ("name #1", "name #2"); then the bundled samples of that kind, by name.
 */
export function fileChoices(
  samples: readonly Sample[],
  session: readonly StoredFile[],
  local: readonly OpenedFile[],
  kind: FileKind,
): FileChoice[] {
  const bundled = samples.filter((s) => s.kind === kind).map((s) => ({ name: s.file, title: s.title }));
  const stored: OpenedFile[] = session
    .filter((f) => f.indexed)
    .map((f) => ({ id: f.id, name: folderQualifiedName(f.name, f.folder_name), kind: f.kind }));
  const refs = new Map(session.map((f) => [f.id, f.ref ?? f.id]));
  // "#k" counts in opening order, as the inspector's chips do: the session and `local` list the latest
  // first, and files opened here that the session does not list yet are the latest of all.
  const all = [...stored]
    .reverse()
    .concat([...local].reverse().filter((l) => !stored.some((s) => s.id === l.id)));
  const labels = fileLabels(all);
  const ids = new Set<string>();
  const opened = [...local, ...stored]
    .filter((f) => f.kind === kind && !bundled.some((b) => b.name === f.name))
    .filter((f) => !ids.has(f.id) && ids.add(f.id))
    .map((f) => {
      const label = labels.get(f.id) ?? f.name;
      return { name: refs.get(f.id) ?? f.id, label, title: `${label} (opened in this tab)` };
    });
  return [...opened, ...bundled];
}

/** Files opened together, rollouts and inputs apart, in the order they were picked. */
export function splitOpened(opened: readonly OpenedFile[]): Opened {
  return {
    rollouts: opened.filter((o) => o.kind === "rollouts").map((o) => o.id),
    inputs: opened.filter((o) => o.kind === "inputs").map((o) => o.id),
  };
}

/**
 * Inputs files opened together with rollouts files go with them, so every tab verifies each with its own:
 * the k-th inputs file with the k-th rollouts file, the first one with any rollouts file beyond.
 */
export function companionsOf(opened: Opened): Record<string, string> {
  const [first] = opened.inputs;
  if (first === undefined) return {};
  return Object.fromEntries(opened.rollouts.map((name, i) => [name, opened.inputs[i] ?? first]));
}

/**
 * Rollouts files the inspector pairs with one inputs file (a folder's task rows, or inputs opened with
 * them), by the names links give them: /compare verifies each with the same rows. A folder file paired with
 * several task-row files, or with rows inside it, has no one file to offer: it is left to the picker.
 */
export function pairedInputsOf(
  session: readonly {
    readonly id: string;
    readonly ref?: string;
    readonly kind: string;
    readonly paired_inputs: string | null;
  }[],
): Record<string, string> {
  const inputs = new Map(session.filter((file) => file.kind === "inputs").map((file) => [file.id, file]));
  // By either name a link gives the file (its id, or a served file's path: DatasetSummary.ref), to the
  // name links give its inputs; a served path names the file read last (the session lists it first).
  const paired = new Map<string, string>();
  for (const file of session) {
    const rows = file.paired_inputs === null ? undefined : inputs.get(file.paired_inputs);
    if (rows === undefined) continue;
    for (const name of [file.id, file.ref ?? file.id])
      if (!paired.has(name)) paired.set(name, rows.ref ?? rows.id);
  }
  return Object.fromEntries(paired);
}

/** The inputs file a rollouts file is verified with: the choice, its companion, or its bundled sample's. */
export function inputsFor(
  file: string,
  choice: string | null,
  companions: Readonly<Record<string, string>>,
  samples: readonly Sample[],
): string | null {
  return resolveInputs(choice ?? companions[file] ?? null, file, samples);
}

/**
 * Where files dropped on the page go, by tab. Runs: two runs are A then B, with one inputs file for both or
 * one each; one run (or inputs alone) goes to B. What-if and repair: the first rollouts file. Null: nothing.
 */
export function dropPatch(tab: CompareState["tab"], opened: Opened): Partial<CompareState> | null {
  const [r1, r2] = opened.rollouts;
  const [i1, i2] = opened.inputs;
  if (tab === "runs") {
    if (r1 !== undefined && r2 !== undefined)
      return { a: r1, b: r2, ai: i1 ?? null, bi: i2 ?? i1 ?? null, pair: null };
    if (r1 !== undefined) return { b: r1, bi: i1 ?? null, pair: null };
    if (i1 !== undefined) return { bi: i1, pair: null };
    return null;
  }
  if (r1 === undefined) return null;
  return tab === "whatif" ? { sample: r1, line: null } : { repairFile: r1 };
}

/** Files picked for one run: its rollouts file (automatic inputs unless one came with it) and/or its inputs. */
export function sidePatch(side: "a" | "b", opened: Opened): Partial<CompareState> | null {
  const [r] = opened.rollouts;
  const [i] = opened.inputs;
  if (r !== undefined)
    return side === "a" ? { a: r, ai: i ?? null, pair: null } : { b: r, bi: i ?? null, pair: null };
  if (i !== undefined) return side === "a" ? { ai: i, pair: null } : { bi: i, pair: null };
  return null;
}

/** The form's first server: the first preferred one the worker knows (the file's verifying server), else any. */
export function defaultServers(
  servers: readonly { readonly name: string; readonly tools: readonly string[] }[],
  preferred: readonly string[],
): ServerDraft[] {
  const pick =
    preferred.map((p) => servers.find((s) => s.name === p)).find((s) => s !== undefined) ?? servers[0];
  return pick ? [{ name: pick.name, tools: pick.tools.join(", ") }] : [{ name: "", tools: "" }];
}

/** The servers as the repair takes them: names trimmed, tools parsed, unnamed rows left out. */
export function parseServers(servers: readonly ServerDraft[]): RepairServerInput[] {
  return servers
    .map((s) => ({ name: s.name.trim(), tools: parseToolList(s.tools) }))
    .filter((s) => s.name !== "");
}

/** What a repair runs on: the file, its inputs (null: none), the harness and the servers. */
export interface RepairForm {
  readonly file: { readonly name: string; readonly version: number } | undefined;
  readonly inputs: { readonly version: number } | null | undefined;
  readonly harness: string;
  readonly servers: readonly RepairServerInput[];
}

/** The shown result was computed for another file, inputs, harness or server list than the form holds now. */
export function repairIsStale(
  ran: {
    readonly file: { readonly name: string; readonly version: number };
    readonly inputs: { readonly version: number } | null;
    readonly harness: string;
    readonly servers: readonly RepairServerInput[];
  } | null,
  form: RepairForm,
): boolean {
  return (
    ran !== null &&
    (ran.file.name !== form.file?.name ||
      ran.file.version !== form.file?.version ||
      ran.inputs?.version !== form.inputs?.version ||
      ran.harness !== form.harness ||
      JSON.stringify(ran.servers) !== JSON.stringify(form.servers))
  );
}

/** A repair can run once the file and its inputs are read and every named server has a tool. */
export function canRepair(form: RepairForm): boolean {
  return (
    form.file !== undefined &&
    form.inputs !== undefined &&
    form.servers.length > 0 &&
    form.servers.every((s) => s.tools.length > 0)
  );
}
