/**
 * The role of each file in an opened folder, decided from its content (never from its name alone) with one
 * sentence of reason, so the page and `cli ... DIR` show the same: rollouts, task rows (materialized inputs
 * or a dataset such as example.jsonl), a Gym config, Gym's own metrics, or not recognised. The front ends
 * read the files (the CLI walks the directory, the browser reads the picked or dropped entries) and hand
 * each one here as `{ path, head }`; lib touches no file system.
 */
import { parseJsonLine } from "../jsonl";
import { isInputRow } from "../verify/pairing";
import { type GymConfig, readGymConfig } from "./config";
import { type GymMetrics, readGymMetrics } from "./metrics";

export type FileRole = "rollouts" | "inputs" | "config" | "metrics" | "ignore";

export const FILE_ROLES: readonly FileRole[] = ["rollouts", "inputs", "config", "metrics", "ignore"];

/** A role from its name (a select's value, `--role PATH=ROLE`, a kept choice), or null for none of them. */
export function readFileRole(value: string): FileRole | null {
  return FILE_ROLES.find((role) => role === value) ?? null;
}

/** How each role reads in the UI and on stderr. */
export const FILE_ROLE_LABEL: Readonly<Record<FileRole, string>> = {
  rollouts: "rollouts",
  inputs: "task rows (inputs)",
  config: "Gym config",
  metrics: "Gym metrics",
  ignore: "not recognised",
};

/** Bytes of a JSONL file's start read to decide its role (a few rows of a typical rollouts file). */
export const ROLE_SNIFF_BYTES = 256 * 1024;

/** YAML and JSON files larger than this are not read for a role (Gym's configs and metrics are small). */
export const MAX_WHOLE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * How a front end reads a folder file for its role: the (decompressed) first ROLE_SNIFF_BYTES of JSONL,
 * the whole text of YAML and JSON (up to MAX_WHOLE_FILE_BYTES), nothing of anything else.
 */
export function headToRead(path: string): "start" | "whole" | "none" {
  const kind = extension(path);
  if (kind === "jsonl") return "start";
  if (kind === "yaml" || kind === "json") return "whole";
  return "none";
}

/** Hidden entries (.git, editor state) are never part of a run: a path with a segment starting with ".". */
export function isHiddenPath(path: string): boolean {
  return path.split("/").some((segment) => segment.startsWith("."));
}

/** Hidden entries named in a folder's summary at most; the rest are counted. */
export const HIDDEN_NAMED_MAX = 5;

/**
 * The hidden entries among a folder's paths, each named once: a hidden file by its path, a hidden folder by
 * its path and "/" (whatever it holds: .git has thousands of files), sorted.
 */
export function hiddenEntries(paths: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    const segments = path.split("/");
    const at = segments.findIndex((segment) => segment.startsWith("."));
    if (at === -1) continue;
    found.add(segments.slice(0, at + 1).join("/") + (at < segments.length - 1 ? "/" : ""));
  }
  return [...found].sort();
}

/** "left out as hidden: .hydra/, .hidden_file" (null for none): a run's file there is never read silently. */
export function hiddenText(entries: readonly string[]): string | null {
  if (entries.length === 0) return null;
  const named = entries.slice(0, HIDDEN_NAMED_MAX).join(", ");
  const more = entries.length - HIDDEN_NAMED_MAX;
  return `left out as hidden: ${named}${more > 0 ? ` and ${more} more` : ""}`;
}

export interface FolderFile {
  /** Path relative to the opened folder, `/`-separated. */
  readonly path: string;
  /**
   * The file's text: all of it for YAML and JSON, the first ROLE_SNIFF_BYTES (decompressed) for JSONL.
   * Null when the front end could not read it as text (binary, unreadable).
   */
  readonly head: string | null;
  /** True when `head` is the whole file. */
  readonly complete: boolean;
}

export interface RoleDecision {
  readonly path: string;
  readonly role: FileRole;
  /** One sentence: what in the file decided the role. */
  readonly reason: string;
  /** True when the user chose the role. */
  readonly chosen: boolean;
  /** The parsed config, for role `config`. */
  readonly config?: GymConfig;
  /** The parsed metrics, for role `metrics`. */
  readonly metrics?: GymMetrics;
}

const extension = (path: string) => {
  const lower = path.toLowerCase();
  if (lower.endsWith(".jsonl.gz")) return "jsonl";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  if (lower.endsWith(".json")) return "json";
  return "other";
};

/** Whole lines of `head` (a cut last line is dropped unless the head is the whole file). */
function headLines(head: string, complete: boolean): string[] {
  const lines = head.split("\n");
  if (!complete && lines.length > 1) lines.pop();
  return lines.filter((l) => l.trim() !== "");
}

function jsonlRole(file: FolderFile, head: string): Omit<RoleDecision, "path" | "chosen"> {
  let rollouts = 0;
  let inputs = 0;
  const lines = headLines(head, file.complete);
  for (const text of lines) {
    const parsed = parseJsonLine(text);
    if (!parsed.ok) continue;
    const value = parsed.value;
    if (
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      Object.hasOwn(value, "response")
    )
      rollouts++;
    else if (isInputRow(value)) inputs++;
  }
  // Only the start of a large file is read for its role: say so, or "3 lines" reads as the whole file's. A
  // whole file's count is of when it was read: a followed file grows past it.
  const of = file.complete
    ? `${lines.length} ${lines.length === 1 ? "line" : "lines"} (when read)`
    : `the first ${lines.length} ${lines.length === 1 ? "line" : "lines"} (its first ${ROLE_SNIFF_BYTES / 1024} KiB, read for its role)`;
  if (rollouts > 0) {
    return {
      role: "rollouts",
      reason: `${rollouts} of ${of} carry a response: Gym's rollouts.${inputs > 0 ? ` (${inputs} task rows without response among them are offered as inputs.)` : ""}`,
    };
  }
  if (inputs > 0) {
    return {
      role: "inputs",
      reason: `${inputs} of ${of} are task rows (responses_create_params, no response): offered as inputs for pairing.`,
    };
  }
  // An empty file (no line, or blank ones only): said so, not "each line is listed" of lines there are not.
  if (lines.length === 0 && file.complete)
    return { role: "rollouts", reason: "Empty: the file holds no line; nothing to read." };
  // No file is refused whole: its lines are listed one by one (placeholders, records without a response).
  return {
    role: "rollouts",
    reason: `None of ${of} is a rollout or a task row; each line is listed with what it is.`,
  };
}

/** The role of one file, from its content. */
export function fileRole(file: FolderFile): RoleDecision {
  const ext = extension(file.path);
  const base = { path: file.path, chosen: false };
  if (file.head === null) return { ...base, role: "ignore", reason: "The file could not be read as text." };
  if (ext === "yaml") {
    const read = readGymConfig(file.path, file.head);
    if (read.ok) {
      const { agents, instances } = read.config;
      return {
        ...base,
        role: "config",
        reason: `${agents.size} agent${agents.size === 1 ? "" : "s"}, ${instances.size} resources server${instances.size === 1 ? "" : "s"}.`,
        config: read.config,
      };
    }
    return { ...base, role: "ignore", reason: `YAML, but ${read.message}.` };
  }
  if (ext === "json") {
    const read = readGymMetrics(file.head);
    if (read.ok) return { ...base, role: "metrics", reason: read.metrics.description, metrics: read.metrics };
    return { ...base, role: "ignore", reason: `JSON, but ${read.message}.` };
  }
  if (ext === "jsonl") return { ...base, ...jsonlRole(file, file.head) };
  return {
    ...base,
    role: "ignore",
    reason: "Not JSONL, YAML or JSON: not a file Gym writes for a run.",
  };
}

/**
 * Files picked together (several files, not a folder) are read as a folder of those files when a Gym config
 * or metrics file is among them beside a rollouts file, so the config routes the rollouts' lines and the
 * metrics are compared, as in the folder they came from. Their names are the folder's paths: they must differ.
 */
export function readAsFolder(files: readonly FolderFile[]): boolean {
  if (files.length < 2 || new Set(files.map((file) => file.path)).size !== files.length) return false;
  const roles = new Set(files.map((file) => fileRole(file).role));
  return roles.has("rollouts") && (roles.has("config") || roles.has("metrics"));
}

/**
 * A Gym config or metrics file opened alone, where rollouts were expected (a file picked by itself, `cli
 * triage FILE`): what it is and how it is used, as a folder would read it (fileRole); null for any other file.
 */
export function runFileAlone(file: FolderFile): string | null {
  const decided = fileRole(file);
  const open =
    "Open it with the run's rollouts: pick both files together, or open the folder that holds them (Open folder…; the CLI takes the folder)";
  if (decided.role === "config")
    return `This is a Gym config (${decided.reason.replace(/\.$/, "")}), not rollouts: it routes a run's lines to their servers when read with them. ${open}.`;
  if (decided.role === "metrics")
    return `This is Gym's metrics file (${decided.reason.replace(/\.$/, "")}), not rollouts: it is compared with the figures recomputed from the run. ${open}.`;
  return null;
}

/** A role the user chose; a config chosen for a file that does not parse as one stays ignored, with why. */
export function chooseRole(decision: RoleDecision, role: FileRole, file: FolderFile): RoleDecision {
  if (role === decision.role) return { ...decision, chosen: true };
  if (role === "config") {
    const read = file.head === null ? null : readGymConfig(file.path, file.head);
    if (read === null || !read.ok) {
      return {
        ...decision,
        reason: `You chose Gym config, but ${read === null ? "the file is not text" : read.message}; ${decision.reason}`,
      };
    }
    return { path: file.path, role, chosen: true, reason: "Chosen by you.", config: read.config };
  }
  if (role === "metrics") {
    const read = file.head === null ? null : readGymMetrics(file.head);
    if (read === null || !read.ok) {
      return {
        ...decision,
        reason: `You chose Gym metrics, but ${read === null ? "the file is not text" : read.message}; ${decision.reason}`,
      };
    }
    return { path: file.path, role, chosen: true, reason: "Chosen by you.", metrics: read.metrics };
  }
  return { path: file.path, role, chosen: true, reason: "Chosen by you." };
}
