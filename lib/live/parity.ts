/**
 * Transport parity (Gym's acceptance bar for MCP exposure): MCP tools/list against the HTTP tool routes
 * of the server's OpenAPI document, names and input schemas side by side, each difference named.
 * Which routes are tools follows Gym's harvest rule (mcp_auto_exposure.harvest_tools): POST routes, minus
 * the reserved names and /mcp; a parameterized path (`/{path}`) is the catch-all that serves tools by name.
 */
import { z } from "zod";
import type { McpToolInfo } from "./mcp";

/** Gym's RESERVED_MCP_TOOL_NAMES: endpoints that are never tools. */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set([
  "verify",
  "seed_session",
  "aggregate_metrics",
  "mcp",
]);

/** Differing schema locations listed per tool; the rest are counted. */
export const MAX_SCHEMA_PATHS = 5;

export type DifferenceKind = "missing_from_mcp" | "missing_from_http" | "schema_differs";

export interface ParityDifference {
  readonly kind: DifferenceKind;
  readonly message: string;
}

export interface HttpToolRoute {
  readonly path: string;
  /** `route`: POST /<name>; `catch-all`: served through a parameterized route such as /{path}. */
  readonly via: "route" | "catch-all";
  readonly inputSchema: unknown;
}

export interface ParityRow {
  readonly name: string;
  readonly mcp: McpToolInfo | null;
  readonly http: HttpToolRoute | null;
  readonly differences: readonly ParityDifference[];
  /** What the comparison could not check, said plainly (e.g. a catch-all route declares no per-tool schema). */
  readonly note: string | null;
}

export interface ParityReport {
  readonly rows: readonly ParityRow[];
  readonly mcpTools: number;
  readonly httpRoutes: number;
  readonly catchAll: string | null;
  readonly differences: number;
}

const operationSchema = z.looseObject({
  requestBody: z
    .looseObject({
      content: z.record(z.string(), z.looseObject({ schema: z.unknown().optional() })).optional(),
    })
    .optional(),
});
const openapiSchema = z.looseObject({
  paths: z.record(z.string(), z.looseObject({ post: operationSchema.optional() })),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()).optional() }).optional(),
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Inlines `#/components/schemas/X` and `#/$defs/X` references (a cycle stays a reference). */
function inlineRefs(
  schema: unknown,
  defs: Readonly<Record<string, unknown>>,
  seen: readonly string[] = [],
): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s, defs, seen));
  if (!isRecord(schema)) return schema;
  const localDefs = isRecord(schema.$defs) ? { ...defs, ...schema.$defs } : defs;
  const ref = schema.$ref;
  if (typeof ref === "string") {
    const name = ref.replace(/^#\/(components\/schemas|\$defs)\//, "");
    const target = localDefs[name];
    if (target !== undefined && !seen.includes(name)) {
      const { $ref: _ref, ...rest } = schema;
      const resolved = inlineRefs(target, localDefs, [...seen, name]);
      const siblings = inlineRefs(rest, localDefs, seen);
      return isRecord(resolved) && isRecord(siblings) ? { ...resolved, ...siblings } : resolved;
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$defs") continue;
    out[key] = inlineRefs(value, localDefs, seen);
  }
  return out;
}

/** Object keys that only label a schema; they never change what it accepts. */
const LABEL_KEYS: ReadonlySet<string> = new Set(["title"]);

/** Every location (JSON pointer) where the two schemas differ, labels ignored. */
export function schemaDifferences(a: unknown, b: unknown, path = ""): string[] {
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    const out: string[] = [];
    for (const key of [...keys].sort()) {
      if (LABEL_KEYS.has(key) && !path.endsWith("/properties")) continue;
      out.push(...schemaDifferences(a[key], b[key], `${path}/${key}`));
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [path || "/"];
    return a.flatMap((item, i) => schemaDifferences(item, b[i], `${path}/${i}`));
  }
  return Object.is(a, b) ? [] : [path || "/"];
}

function isPermissive(schema: unknown): boolean {
  if (!isRecord(schema)) return true;
  const props = schema.properties;
  return (
    (props === undefined || (isRecord(props) && Object.keys(props).length === 0)) &&
    (schema.required === undefined || (Array.isArray(schema.required) && schema.required.length === 0)) &&
    schema.additionalProperties !== false
  );
}

function show(value: unknown): string {
  return value === undefined ? "absent" : JSON.stringify(value);
}

function pointerGet(value: unknown, pointer: string): unknown {
  let cur = value;
  for (const part of pointer.split("/").slice(1)) {
    if (Array.isArray(cur)) cur = cur[Number(part)];
    else if (isRecord(cur)) cur = cur[part];
    else return undefined;
  }
  return cur;
}

/** The HTTP tool routes of an OpenAPI document, by Gym's harvest rule. */
export function httpToolRoutes(
  openapi: unknown,
): { ok: true; routes: HttpToolRoute[]; names: string[] } | { ok: false; error: string } {
  const parsed = openapiSchema.safeParse(openapi);
  if (!parsed.success) return { ok: false, error: "the OpenAPI document has no readable paths" };
  const defs = parsed.data.components?.schemas ?? {};
  const routes: HttpToolRoute[] = [];
  const names: string[] = [];
  for (const [path, item] of Object.entries(parsed.data.paths)) {
    if (item.post === undefined) continue;
    const name = path.replace(/^\//, "");
    if (RESERVED_TOOL_NAMES.has(name) || path === "/mcp") continue;
    const content = item.post.requestBody?.content ?? {};
    const body = content["application/json"]?.schema;
    const inputSchema =
      body === undefined ? { type: "object", additionalProperties: true } : inlineRefs(body, defs);
    const via = path.includes("{") ? "catch-all" : "route";
    routes.push({ path, via, inputSchema });
    names.push(via === "route" ? name : path);
  }
  return { ok: true, routes, names };
}

export function compareParity(
  mcpTools: readonly McpToolInfo[],
  openapi: unknown,
): ParityReport | { error: string } {
  const http = httpToolRoutes(openapi);
  if (!http.ok) return { error: http.error };
  const explicit = new Map(http.routes.filter((r) => r.via === "route").map((r) => [r.path.slice(1), r]));
  const catchAll = http.routes.find((r) => r.via === "catch-all") ?? null;
  const mcpByName = new Map(mcpTools.map((t) => [t.name, t]));
  const names = [...new Set([...mcpTools.map((t) => t.name), ...explicit.keys()])];
  const rows: ParityRow[] = names.map((name) => {
    const mcp = mcpByName.get(name) ?? null;
    const route = explicit.get(name) ?? null;
    const differences: ParityDifference[] = [];
    let note: string | null = null;
    let httpSide: HttpToolRoute | null = route;
    if (mcp === null) {
      differences.push({
        kind: "missing_from_mcp",
        message: `POST /${name} is an HTTP tool route, but MCP tools/list does not list ${name}`,
      });
    } else if (route === null && catchAll === null) {
      differences.push({
        kind: "missing_from_http",
        message: `MCP lists ${name}, but the OpenAPI document has no POST /${name} and no catch-all route`,
      });
    } else if (route === null && catchAll !== null) {
      httpSide = catchAll;
      note = isPermissive(catchAll.inputSchema)
        ? `served over HTTP by the catch-all POST ${catchAll.path}, which accepts any JSON object: the input schema is declared over MCP only`
        : `served over HTTP by the catch-all POST ${catchAll.path}`;
      if (!isPermissive(catchAll.inputSchema)) {
        const diffs = schemaDifferences(mcp.inputSchema, catchAll.inputSchema);
        if (diffs.length > 0)
          differences.push(schemaDiff(name, diffs, mcp.inputSchema, catchAll.inputSchema));
      }
    } else if (route !== null) {
      const diffs = schemaDifferences(inlineRefs(mcp.inputSchema, {}), route.inputSchema);
      if (diffs.length > 0)
        differences.push(schemaDiff(name, diffs, inlineRefs(mcp.inputSchema, {}), route.inputSchema));
    }
    return { name, mcp, http: httpSide, differences, note };
  });
  return {
    rows,
    mcpTools: mcpTools.length,
    httpRoutes: explicit.size,
    catchAll: catchAll?.path ?? null,
    differences: rows.reduce((n, r) => n + r.differences.length, 0),
  };
}

function schemaDiff(name: string, paths: readonly string[], mcp: unknown, http: unknown): ParityDifference {
  const shown = paths
    .slice(0, MAX_SCHEMA_PATHS)
    .map((p) => `${p}: MCP ${show(pointerGet(mcp, p))}, HTTP ${show(pointerGet(http, p))}`);
  const more = paths.length > MAX_SCHEMA_PATHS ? `; ${paths.length - MAX_SCHEMA_PATHS} more` : "";
  return { kind: "schema_differs", message: `${name}: input schemas differ at ${shown.join("; ")}${more}` };
}
