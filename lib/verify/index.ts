/**
 * The verify pipeline (contract, "Verification"): rollout (+ its materialized-inputs row) -> verify request
 * -> resolution -> canonical copy -> the verifying server's verifier -> VerifyResult. Never throws and never
 * mutates its inputs: every failure is a result with reward null and an error.
 */
import { canonicalizeForVerification, type WithResponse } from "../canonicalize";
import type { HarnessId } from "../harness/types";
import { DEFAULT_POLICY, resolveRollout } from "../identity";
import type { Policy, ResolveOptions, RolloutResolution } from "../identity/types";
import { isJsonObject, type Rollout } from "../schemas";
import type { Pairing } from "./pairing";
import { defaultRegistry, type VerifierRegistry } from "./registry";
import { defaultedFields, missingFields } from "./request-models";
import { type ConfigRouter, chooseServer, lineAgent, routeLine } from "./server";
import type { GymAlone, Verifier, VerifierOutput, VerifyResult } from "./types";
import {
  ambiguousInput,
  gymRefuses,
  type LineSource,
  missingField,
  noServer,
  notARollout,
  noVerifier,
  type Unverified,
  verifierError,
} from "./unverified";

export {
  LISTED_CALLS,
  LISTED_SENTENCES,
  LISTED_TABLE_ROWS,
  type ListedTableDiff,
  type ListedWorkplaceDetails,
  listedDetails,
  type VerifierDetails,
  type VerifierDetailsKind,
  type VerifierDetailsView,
  type WorkplaceVerifierDetails,
} from "./details";
export {
  CLOSEST_ROWS_COMPARED,
  InputIndex,
  indexInputs,
  isInputRow,
  PAIRED_BY_LABEL,
  type PairedBy,
  type Pairing,
  pairInputs,
  pairingIndices,
  pairingKey,
  type RowPlace,
  rowLabel,
  rowLabelLine,
  taskInputKey,
} from "./pairing";
export {
  createRegistry,
  defaultRegistry,
  getVerifier,
  knownTools,
  type VerifierRegistry,
  verifierServers,
} from "./registry";
export { defaultedFields, missingFields, REQUEST_MODELS } from "./request-models";
export {
  agentRefName,
  type ConfigRouter,
  chooseServer,
  declaredToolNames,
  lineAgent,
  provenanceServers,
  type RunServerChoice,
  SERVER_SOURCE_LABEL,
  SERVER_SOURCES,
  type ServerChoice,
  type ServerChoiceOptions,
  type ServerSource,
  verifiersForTools,
} from "./server";
export { VerifyTally } from "./tally";
export type { GymAlone, Verifier, VerifierOutput, VerifyRequest, VerifyResult } from "./types";
export {
  type LineSource,
  ngRunCommand,
  UNVERIFIED_CODES,
  UNVERIFIED_LABEL,
  type Unverified,
  type UnverifiedCode,
} from "./unverified";

export const PROVENANCE_KEY = "mcp_tool_call_provenance";

export interface VerifyOptions {
  /** The user's verifying server S; without it chooseServer decides (environment_name, input row, ...). */
  readonly server?: string | null;
  /** The opened folder's Gym config routes (chooseServer's `config` source). */
  readonly config?: ConfigRouter | null;
  /** The bundled sample's declared server, when the rollout came from one (chooseServer's last resort). */
  readonly sample?: string | null;
  readonly policy?: Policy;
  /** The rollout's materialized-inputs row (see InputIndex); without it the rollout's own echoed task fields are used. */
  readonly input?: unknown;
  /** How `input` was found (or why there is none), when the caller paired the line. */
  readonly pairing?: Pick<Pairing<unknown>, "paired_by" | "ambiguous" | "reason" | "disagreement" | "row">;
  readonly registry?: VerifierRegistry;
  /** Where the line came from (the rollouts file and its configs), for the next step in sentences. */
  readonly source?: LineSource;
  /** The harness that produced the rollout, when known (alias diagnostics only). */
  readonly harness?: HarnessId;
  /** S's tool list for the diagnostics; default the registered verifier's. */
  readonly tools?: readonly string[];
}

type JsonObject = Readonly<Record<string, unknown>>;

/**
 * What a line's pairing gives verifyRollout: the row, when one paired, and how it was found or why none
 * was, so an unpaired line says why rather than "open the inputs" while they are open. Every caller that
 * pairs through an InputIndex passes it this way.
 */
export function pairedInput(
  pairing: Pairing<unknown> | null | undefined,
): Pick<VerifyOptions, "pairing" | "input"> {
  if (pairing === null || pairing === undefined) return {};
  return pairing.ref === null ? { pairing } : { pairing, input: pairing.ref };
}

/** The verifying server for a rollout (chooseServer without its source), null when nothing decides. */
export function verifyingServer(
  rollout: Rollout,
  options: Pick<VerifyOptions, "server" | "input" | "sample" | "registry" | "config"> = {},
): string | null {
  return chooseServer(rollout, {
    override: options.server ?? null,
    config: options.config ?? null,
    input: options.input,
    sample: options.sample ?? null,
    ...(options.registry === undefined ? {} : { registry: options.registry }),
  }).server;
}

/**
 * The verify request Gym would POST: the input row with the rollout's `response` (and its provenance map when
 * the rollout has the key), or without an input row the rollout itself, whose echoed task fields are what the
 * verifier reads. Shallow: canonicalization deep-copies it before anything changes.
 */
export function buildVerifyRequest(rollout: Rollout, input?: JsonObject): JsonObject & WithResponse {
  if (input === undefined) return rollout;
  const request: Record<string, unknown> & WithResponse = { ...input, response: rollout.response };
  if (Object.hasOwn(rollout, PROVENANCE_KEY)) request[PROVENANCE_KEY] = rollout[PROVENANCE_KEY];
  return request;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const NO_PAIRING = { paired_by: "none", ambiguous: 0, reason: "No inputs file was given." } as const;

/**
 * The verifying server (with why), its verifier and the resolve options verifyRollout uses for a rollout:
 * the detail pane resolves calls a page at a time (lib/identity rolloutResolver) with exactly these.
 */
export function verifyContext(rollout: Rollout, options: VerifyOptions = {}) {
  const registry = options.registry ?? defaultRegistry;
  const choice = chooseServer(rollout, {
    override: options.server ?? null,
    config: options.config ?? null,
    input: options.input,
    sample: options.sample ?? null,
    registry,
  });
  const verifier = choice.server === null ? undefined : registry.get(choice.server);
  const resolve: ResolveOptions = {
    server: choice.server ?? "",
    policy: options.policy ?? DEFAULT_POLICY,
    harness: options.harness,
    tools: options.tools ?? verifier?.tools,
  };
  return { choice, verifier, resolve };
}

/**
 * Verifies one rollout, narrowed at the edge (lib/schemas readRollout): a line that is not a rollout is a
 * line error of its own and never reaches a verifier.
 */
export function verifyRollout(rollout: Rollout, options: VerifyOptions = {}): VerifyResult {
  const registry = options.registry ?? defaultRegistry;
  const policy = options.policy ?? DEFAULT_POLICY;
  const { choice, verifier, resolve } = verifyContext(rollout, options);
  const server = choice.server;
  const resolution = resolveRollout(rollout, resolve);
  const recorded = typeof rollout.reward === "number" ? rollout.reward : null;
  const rejectReasons = resolution.findings.flatMap((f) => (f.kind === "gym_would_reject" ? f.reasons : []));
  const pairing =
    options.pairing ??
    (options.input === undefined
      ? NO_PAIRING
      : ({ paired_by: "index", ambiguous: 0, reason: "Paired by the caller." } as const));
  const base = {
    server,
    server_source: choice.source,
    server_reason: choice.reason,
    paired_by: pairing.paired_by,
    policy,
    recorded_reward: recorded,
    resolution,
    ...(options.pairing === undefined ? {} : { pairing_reason: options.pairing.reason }),
    ...(rejectReasons.length > 0 ? { gym_would_reject: rejectReasons } : {}),
  };
  const unverified = (why: Unverified, extra: readonly string[] = []): VerifyResult => ({
    ...base,
    reward: null,
    explanation: [why.message, ...extra],
    error: why.message,
    unverified: why,
  });

  // Inputs are open when the caller paired the line; an unpaired line then says why, never "open the inputs".
  const unpaired = options.pairing !== undefined && options.input === undefined ? pairing.reason : null;
  const inputsOpen =
    options.pairing === undefined ? null : { paired: options.input !== undefined, reason: pairing.reason };
  // A line's agent without a config to route it: the folder Gym wrote has one.
  const unroutedAgent = options.config ? null : lineAgent(rollout, options.input);
  if (server === null)
    return unverified(noServer(choice.reason, choice.candidates, inputsOpen, unroutedAgent));
  if (verifier === undefined)
    return unverified(
      noVerifier(server, [...registry.keys()], routedSource(options.source, choice.config_files)),
    );
  let input: JsonObject | undefined;
  if (options.input !== undefined) {
    if (!isJsonObject(options.input))
      return unverified(notARollout("The paired input row is not a JSON object"));
    input = options.input;
  }

  const request = buildVerifyRequest(rollout, input);
  const missing = missingFields(server, request);
  if (missing.length > 0) {
    if (pairing.ambiguous > 1) return unverified(ambiguousInput(pairing.ambiguous));
    return unverified(missingField(server, missing, options.input !== undefined, unpaired));
  }
  // Gym's request model refuses these before any verifier runs (HTTP 422), so no reward exists.
  if (rejectReasons.length > 0) return unverified(gymRefuses(rejectReasons));
  const defaulted = defaultedFields(server, request);
  if (options.input === undefined && defaulted.length > 0) {
    // Never score a default: the run had the task's own value, which this unpaired line lacks. What Gym's
    // /verify would return for the line alone is shown beside it, labelled, and counted nowhere.
    const why = missingField(
      server,
      defaulted.map((d) => d.field),
      false,
      unpaired,
      true,
    );
    return { ...unverified(why), gym_alone: gymAlone(verifier, request, resolution, defaulted) };
  }

  let output: VerifierOutput;
  try {
    output = verifier.verify(canonicalizeForVerification(request, resolution));
  } catch (error) {
    // A verifier must not throw; if one does, the rollout still gets a result instead of ending the run.
    return unverified(verifierError(server, errorMessage(error)));
  }
  const result = withOutput(base, output, defaulted, recorded);
  const disagreement = options.pairing?.disagreement;
  return disagreement === undefined
    ? result
    : { ...result, explanation: [disagreement, ...result.explanation] };
}

/** A rollout's two recomputations: the contract policy's and the legacy one's, with the same options. */
export interface BothPolicies {
  readonly contract: VerifyResult;
  readonly legacy: VerifyResult;
}

/**
 * Verifies a rollout under both policies with the same options (what every list, triage and the run view
 * compare). A result the caller already has (`given`, computed with the same options) is used as is.
 */
export function verifyBothPolicies(
  rollout: Rollout,
  options: Omit<VerifyOptions, "policy"> = {},
  given: Partial<BothPolicies> = {},
): BothPolicies {
  return {
    contract: given.contract ?? verifyRollout(rollout, { ...options, policy: "contract" }),
    legacy: given.legacy ?? verifyRollout(rollout, { ...options, policy: "legacy" }),
  };
}

/**
 * The config files `ng_run` needs for a line: those of `configs` (as the caller names them) that declared
 * its route (`files`, folder-relative), else all of them.
 */
export function routedConfigs(
  configs: readonly string[],
  files: readonly string[] | undefined,
): readonly string[] {
  if (files === undefined) return configs;
  // None: the configs do not start the server (a server the user chose that they do not route to).
  if (files.length === 0) return [];
  const routed = configs.filter((c) => files.some((f) => c === f || c.endsWith(`/${f}`)));
  return routed.length > 0 ? routed : configs;
}

/**
 * The config files that start the server a line is routed to (what `no_verifier`'s and /live's `ng_run`
 * name): the folder's configs that declared the line's route, else all of them.
 */
export function lineConfigs(
  configs: readonly string[],
  config: ConfigRouter | null,
  rollout: unknown,
  input?: unknown,
): readonly string[] {
  const routed = config === null ? undefined : routeLine(config, rollout, input).routed;
  return routedConfigs(configs, routed?.server == null ? undefined : routed.files);
}

/** The line's source with only the config files that routed it (matched by their folder-relative path). */
function routedSource(source: LineSource | undefined, files: readonly string[] | undefined): LineSource {
  if (source === undefined || source.configs === undefined) return source ?? {};
  return { ...source, configs: routedConfigs(source.configs, files) };
}

/** What Gym's /verify returns for an unpaired line alone, its defaults filled (see VerifyResult.gym_alone). */
function gymAlone(
  verifier: Verifier,
  request: JsonObject & WithResponse,
  resolution: RolloutResolution,
  defaulted: readonly { field: string; value: string }[],
): GymAlone {
  const fields = defaulted.map((d) => `${d.field} = ${d.value}`).join(", ");
  try {
    const output = verifier.verify(canonicalizeForVerification(request, resolution));
    return {
      reward: output.error === undefined ? output.reward : null,
      note: `What Gym's /verify would return for this line alone, with its default ${fields}; not this task's reward, and counted nowhere.`,
    };
  } catch (error) {
    return {
      reward: null,
      note: `This project's verifier failed on the line alone (${errorMessage(error)}).`,
    };
  }
}

/** Why a reward scored with Gym's defaults may differ from the recorded one (the paired row lacks a field). */
function defaultsNote(
  defaulted: readonly { field: string; value: string }[],
  reward: number,
  recorded: number | null,
): string[] {
  if (defaulted.length === 0) return [];
  const fields = defaulted.map((d) => `${d.field} (Gym's default: ${d.value})`).join(", ");
  const differs = recorded !== null && recorded !== reward;
  return [
    `The paired input row carries no ${fields}, so it is scored as Gym scores such a request` +
      (differs ? `; that may be why ${reward} differs from the recorded ${recorded}.` : "."),
  ];
}

function withOutput(
  base: Omit<VerifyResult, "reward" | "explanation">,
  output: VerifierOutput,
  defaulted: readonly { field: string; value: string }[],
  recorded: number | null,
): VerifyResult {
  // No verifier's details carry the response (they are typed per verifier), so no name needs restoring.
  const details = output.details === undefined ? {} : { details: output.details };
  if (output.error !== undefined) {
    const why = gymRefuses([output.error]);
    return {
      ...base,
      reward: null,
      explanation: [why.message, ...output.explanation],
      error: output.error,
      unverified: why,
      ...details,
    };
  }
  return {
    ...base,
    reward: output.reward,
    ...(output.components === undefined ? {} : { components: output.components }),
    // The defaults note comes first: it is why the reward may not match the recorded one at all.
    explanation: [...defaultsNote(defaulted, output.reward, recorded), ...output.explanation],
    ...(defaulted.length > 0 ? { defaults_applied: defaulted.map((d) => d.field) } : {}),
    ...details,
  };
}
