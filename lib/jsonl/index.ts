export { canonicalJson } from "./canonical";
export {
  damagedBeforeFirstLineText,
  GZIP_MAGIC,
  GzipError,
  type GzipErrorKind,
  gunzip,
  gunzipIfGzip,
  gzipDamageText,
  hasGzipMagic,
  INFLATE_INPUT_SLICE,
  streamChunks,
} from "./gzip";
export { LineSplitter, type RawLine } from "./lines";
export {
  MAX_NESTING_DEPTH,
  type ParseResult,
  parseJsonLine,
  parsePythonJson,
  reparseJsonLine,
  unclosedJson,
} from "./parse";
export { bareOrJsonString } from "./quoted";
export {
  CUT_LAST_LINE,
  firstInvalidUtf8,
  type JsonlItem,
  jsonlItemsOf,
  lineItem,
  MAX_LINE_BYTES,
  type RawChunk,
  type ReadJsonlOptions,
  readJsonl,
  readRawLines,
  SHORT_LINE_CHARS,
} from "./read";
