/**
 * A verifier's details bounded for a page (the union itself lives with the verifiers: lib/verifiers/details.ts).
 */
import type { VerifierDetails, WorkplaceVerifierDetails } from "../verifiers/details";

export type {
  IpiDetails,
  MathDetails,
  MultirewardDetails,
  MultiStepDetails,
  VerifierDetails,
  VerifierDetailsKind,
  WeatherDetails,
  WorkplaceVerifierDetails,
} from "../verifiers/details";

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
