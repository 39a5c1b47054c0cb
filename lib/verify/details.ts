/**
 * A verifier's structured details, tagged by the server whose verifier produced them, so every front end
 * reads them by their type (table differences, the matched injection, ...) instead of narrowing unknown
 * JSON again. Each verifier declares its own shape next to its code.
 */
import type { WeatherDetails } from "../verifiers/example_mcp_weather";
import type { MultiStepDetails } from "../verifiers/example_multi_step";
import type { MultirewardDetails } from "../verifiers/example_tool_call_multireward";
import type { IpiDetails } from "../verifiers/indirect_prompt_injection";
import type { MathDetails } from "../verifiers/math_advanced_calculations";
import type { WorkplaceVerifierDetails } from "../verifiers/workplace_assistant";

export type VerifierDetails =
  | WorkplaceVerifierDetails
  | IpiDetails
  | MathDetails
  | MultirewardDetails
  | WeatherDetails
  | MultiStepDetails;

export type VerifierDetailsKind = VerifierDetails["kind"];

export type {
  IpiDetails,
  MathDetails,
  MultirewardDetails,
  MultiStepDetails,
  WeatherDetails,
  WorkplaceVerifierDetails,
};

/** Rows (and differing cells) of one table listed per side; the rest are counted. */
export const LISTED_TABLE_ROWS = 8;
/** Calls that did not apply listed by name and reason; the rest are counted. */
export const LISTED_CALLS = 50;
/** Explanation sentences carried to a page; the rest are counted (the CLI's exports keep them all). */
export const LISTED_SENTENCES = 50;

type TableDiff = WorkplaceVerifierDetails["tables"][number];
type CallRecord = WorkplaceVerifierDetails["calls"][number];

/** A table's differences with the first rows of each kind, and how many there are. */
export interface ListedTableDiff extends TableDiff {
  readonly totals: {
    readonly onlyPredicted: number;
    readonly onlyExpected: number;
    readonly differingCells: number;
  };
}

/** workplace_assistant's details as a page shows them: bounded whatever the rollout's length. */
export interface ListedWorkplaceDetails {
  readonly kind: WorkplaceVerifierDetails["kind"];
  readonly tables: readonly ListedTableDiff[];
  /** The first LISTED_CALLS predicted calls whose outcome is not "applied". */
  readonly skipped: readonly CallRecord[];
  readonly skippedTotal: number;
  readonly callsTotal: number;
  readonly gymError?: string;
}

export type VerifierDetailsView = ListedWorkplaceDetails | Exclude<VerifierDetails, WorkplaceVerifierDetails>;

/**
 * A verifier's details bounded for display: a 100k-call rollout's workplace details list 100k call
 * records and tens of thousands of extra rows, which a page neither needs nor can take in one message.
 */
export function listedDetails(details: VerifierDetails): VerifierDetailsView {
  if (details.kind !== "workplace_assistant") return details;
  const skipped = details.calls.filter((call) => call.outcome !== "applied");
  return {
    kind: details.kind,
    tables: details.tables.map((table) => ({
      ...table,
      onlyPredicted: table.onlyPredicted.slice(0, LISTED_TABLE_ROWS),
      onlyExpected: table.onlyExpected.slice(0, LISTED_TABLE_ROWS),
      differingCells: table.differingCells.slice(0, LISTED_TABLE_ROWS),
      totals: {
        onlyPredicted: table.onlyPredicted.length,
        onlyExpected: table.onlyExpected.length,
        differingCells: table.differingCells.length,
      },
    })),
    skipped: skipped.slice(0, LISTED_CALLS),
    skippedTotal: skipped.length,
    callsTotal: details.calls.length,
    ...(details.gymError === undefined ? {} : { gymError: details.gymError }),
  };
}
