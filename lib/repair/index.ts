export {
  createRepairer,
  DERIVED_BY,
  DERIVED_KEY,
  type DerivedCall,
  type DerivedLabel,
  type RepairOptions,
  type RepairResult,
  type RepairServer,
  type RepairStatus,
  repairRollout,
  type UnresolvedCall,
  type UnresolvedReason,
} from "./repair";
