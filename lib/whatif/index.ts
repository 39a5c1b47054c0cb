export {
  harnessWhatIf,
  type VariantResult,
  type WhatIfErrorKind,
  type WhatIfOptions,
  type WhatIfReport,
  type WhatIfRow,
} from "./whatif";
