/**
 * "Unverified" is an outcome, not a blank: every VerifyResult without a reward carries one stable reason
 * code (for filters, data attributes and scripts) and one sentence that says what to do about it.
 */
import { shellQuote, shellWord } from "../shell";

export type UnverifiedCode =
  /** Nothing names the verifying server (see chooseServer). */
  | "no_server"
  /** The verifying server has no ported verifier. */
  | "no_verifier"
  /** Several input rows share the line's task input and differ, so it was not paired. */
  | "ambiguous_input"
  /** A field Gym's request model requires is missing from the line (and its input row). */
  | "missing_field"
  /** Gym's server would refuse the verify request (422 from its request model, or 500 from its verifier). */
  | "gym_refuses"
  /** The line is not a rollout object (nothing to verify). */
  | "not_a_rollout"
  /** This project's port failed on the request (a bug here, not in the data). */
  | "verifier_error";

export const UNVERIFIED_CODES: readonly UnverifiedCode[] = [
  "no_server",
  "no_verifier",
  "ambiguous_input",
  "missing_field",
  "gym_refuses",
  "not_a_rollout",
  "verifier_error",
];

/** Short labels for the UI (badges, the filter). */
export const UNVERIFIED_LABEL: Readonly<Record<UnverifiedCode, string>> = {
  no_server: "no server",
  no_verifier: "no verifier",
  ambiguous_input: "ambiguous input",
  missing_field: "no task data",
  gym_refuses: "Gym refuses",
  not_a_rollout: "not a rollout",
  verifier_error: "verifier error",
};

export interface Unverified {
  readonly code: UnverifiedCode;
  /** One sentence a researcher can act on. */
  readonly message: string;
}

/** "a, b and c": how every sentence here lists things. */
export const joinList = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

/**
 * Where the line came from, when a front end knows: the rollouts file (as the user named it) and the Gym
 * configs that go with it. The sentences then name the next step with the real paths.
 */
export interface LineSource {
  /** The rollouts file, as `cli live --rollouts` takes it. */
  readonly rollouts?: string;
  /** The folder's config files (paths as the user sees them). */
  readonly configs?: readonly string[];
  /** The task-row files the line is paired from, as `cli live --inputs` takes them (in pairing order). */
  readonly inputs?: readonly string[];
}

/** The next step when the run's server is none of those with a port here (a no_server sentence's last). */
export const NO_PORT_NEXT =
  "If its server has no verifier port here, verify it through that server's own /verify (the /live page, or cli live).";

/**
 * `inputs`: how the line paired with the open inputs (null when none are open: then the sentence says to
 * open them; an unpaired line says why instead). `unroutedAgent`: the line's agent, when no Gym config was
 * given to route it (a lone rollouts file): the folder Gym wrote has the config that names its server.
 */
export function noServer(
  reason: string,
  candidates: readonly string[],
  inputs: { readonly paired: boolean; readonly reason: string } | null = null,
  unroutedAgent: string | null = null,
): Unverified {
  const choose = `Choose the verifying server${candidates.length > 0 ? ` (one of ${joinList(candidates)})` : ""}${
    unroutedAgent === null
      ? ""
      : `, or open the folder Gym wrote for this run (its configs say which server agent ${unroutedAgent} calls)`
  }`;
  const next =
    candidates.length > 0 || inputs?.paired === true
      ? `${choose}.`
      : inputs === null
        ? `${choose}, or open the materialized inputs file the run was made from.`
        : `${choose}. ${inputs.reason}`;
  // Most of Gym's servers have no port here: choosing among the ported ones cannot score their runs.
  return { code: "no_server", message: `${reason} ${next} ${NO_PORT_NEXT}` };
}

/**
 * `ng_run` with the folder's configs, as Gym starts the servers a config declares. Double quotes as Gym's docs
 * write it, unless a path holds what a shell expands inside them (`"`, `$`, a backquote, `\`, `!`).
 */
export function ngRunCommand(configs: readonly string[]): string {
  const override = `+config_paths=[${configs.join(",")}]`;
  return `ng_run ${/["$`\\!]/.test(override) ? shellQuote(override) : `"${override}"`}`;
}

export function noVerifier(
  server: string,
  available: readonly string[],
  source: LineSource = {},
): Unverified {
  const rollouts = source.rollouts ?? "FILE";
  const inputs = (source.inputs ?? []).map((path) => ` --inputs ${shellWord(path)}`).join("");
  const start =
    source.configs !== undefined && source.configs.length > 0
      ? ` (start it with ${ngRunCommand(source.configs)})`
      : "";
  return {
    code: "no_verifier",
    message: `This project has no port of ${server}'s verifier: verify through ${server}'s own /verify${start}, from /live with this file chosen or with \`cli live URL --rollouts ${shellWord(rollouts)}${inputs}\`; if ${server} is not the server that scored this run, choose one of ${joinList([...available].sort())}.`,
  };
}

export function ambiguousInput(rows: number): Unverified {
  return {
    code: "ambiguous_input",
    message: `${rows} different input rows have this line's responses_create_params.input, so it was not paired and lacks its task data; give the lines their (_ng_task_index, _ng_rollout_index) or open the run's own materialized inputs.`,
  };
}

/**
 * A task field the verifier reads is missing. `paired`: the line was paired with an input row (which lacks
 * it too). `unpaired`: inputs are open but the line paired none (Pairing.reason); null when none are open.
 * `defaulted`: the fields have a Gym default, which is never scored for an unpaired line.
 */
export function missingField(
  server: string,
  fields: readonly string[],
  paired: boolean,
  unpaired: string | null = null,
  defaulted = false,
): Unverified {
  const what = `no ${joinList(fields)}`;
  const reads = defaulted
    ? `which Gym's ${server} verifier reads (its request model would fill a default, which is not this task's value)`
    : `which Gym's ${server} request model requires`;
  return {
    code: "missing_field",
    message: paired
      ? `Neither this line nor its paired input row carries ${joinList(fields)}, ${reads}; the input row is not the one this rollout was run from.`
      : unpaired !== null
        ? `This line carries ${what}, ${reads}, and it did not pair with the open inputs. ${unpaired}`
        : `This line carries ${what}, ${reads}: open the materialized inputs file it was run from.`,
  };
}

export function gymRefuses(reasons: readonly string[]): Unverified {
  return {
    code: "gym_refuses",
    message: `Gym's server would refuse this verify request (${reasons.join("; ")}), so it has no reward; fix the line or the run that wrote it.`,
  };
}

export function notARollout(reason: string): Unverified {
  return { code: "not_a_rollout", message: `${reason}; only rollout lines can be verified.` };
}

export function verifierError(server: string, reason: string): Unverified {
  return {
    code: "verifier_error",
    message: `This project's ${server} verifier failed (${reason}); this is a bug in Rollout Inspector, please report the line.`,
  };
}
