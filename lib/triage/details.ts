/**
 * The two things triage reads from a verifier's details: what each predicted call did and which compared
 * tables differ. Only workplace_assistant reports them (VerifierDetails is tagged by server); any other
 * verifier's details give [].
 */
import type { CallRecord, TableDiff } from "../verifiers/workplace_assistant";
import type { VerifierDetails } from "../verify/details";

export type CallOutcome = CallRecord;
export type TableState = TableDiff;

export function readCallOutcomes(details: VerifierDetails | undefined): readonly CallOutcome[] {
  return details?.kind === "workplace_assistant" ? details.calls : [];
}

export function readTableDiffs(details: VerifierDetails | undefined): readonly TableState[] {
  return details?.kind === "workplace_assistant" ? details.tables : [];
}
