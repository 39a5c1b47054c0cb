export {
  harnessWhatIf,
  type VariantResult,
  type WhatIfOptions,
  type WhatIfReport,
  type WhatIfRow,
} from "./whatif";
