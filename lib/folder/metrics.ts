/**
 * Gym's own numbers for a run, read with zod: `example_metrics.json` (what Gym's data preparation computed
 * over a dataset: "Number of examples", per-field "Average"/"Min"/"Max", ...) and `*_aggregate_metrics.json`
 * (a list of `{agent_ref: {name}, agent_metrics, key_metrics, group_level_metrics}`, one per agent, written
 * by `gym eval run` / reverify from each resources server's /aggregate_metrics).
 */
import { z } from "zod";
import { parseJsonLine } from "../jsonl";

const Stat = z.looseObject({
  "Total # non-null values": z.number().optional(),
  Average: z.number().optional(),
  Min: z.number().optional(),
  Max: z.number().optional(),
  "Standard deviation": z.number().optional(),
});

const DatasetMetricsSchema = z.looseObject({
  "Number of examples": z.number().int().nonnegative(),
  // A dataset field may share a name with Gym's own keys (a `jsonl_fpath` column): kept only when a string.
  jsonl_fpath: z.string().optional().catch(undefined),
});

const MetricValue = z.unknown();
const AgentEntrySchema = z.looseObject({
  agent_ref: z.looseObject({ name: z.string() }),
  agent_metrics: z.record(z.string(), MetricValue).optional(),
  key_metrics: z.record(z.string(), MetricValue).optional(),
  group_level_metrics: z.unknown().optional(),
});
const AggregateMetricsSchema = z.array(AgentEntrySchema).min(1);

export interface DatasetStat {
  readonly field: string;
  readonly count?: number;
  readonly average?: number;
  readonly min?: number;
  readonly max?: number;
}

export type GymMetrics =
  | {
      readonly kind: "dataset";
      readonly description: string;
      readonly examples: number;
      /** The dataset file Gym computed them over, as Gym names it (`jsonl_fpath`). */
      readonly jsonl_fpath: string | null;
      readonly stats: readonly DatasetStat[];
    }
  | {
      readonly kind: "aggregate";
      readonly description: string;
      readonly agents: readonly {
        readonly agent: string;
        /** Numeric entries of agent_metrics and key_metrics (key_metrics win on a shared name). */
        readonly numbers: Readonly<Record<string, number>>;
      }[];
    };

export type ReadMetricsResult =
  | { readonly ok: true; readonly metrics: GymMetrics }
  | { readonly ok: false; readonly kind: "not_json" | "not_gym_metrics"; readonly message: string };

function numbers(record: Readonly<Record<string, unknown>> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(record ?? {}))
    if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
  return out;
}

/** Reads a JSON file as Gym metrics; never throws. */
export function readGymMetrics(text: string): ReadMetricsResult {
  const parsed = parseJsonLine(text.replace(/\r?\n/g, " "));
  if (!parsed.ok) return { ok: false, kind: "not_json", message: "not valid JSON" };
  const dataset = DatasetMetricsSchema.safeParse(parsed.value);
  if (dataset.success) {
    const stats: DatasetStat[] = [];
    for (const [field, value] of Object.entries(dataset.data)) {
      const stat = Stat.safeParse(value);
      if (!stat.success || typeof value !== "object" || value === null || !("Average" in value)) continue;
      stats.push({
        field,
        ...(stat.data["Total # non-null values"] === undefined
          ? {}
          : { count: stat.data["Total # non-null values"] }),
        ...(stat.data.Average === undefined ? {} : { average: stat.data.Average }),
        ...(stat.data.Min === undefined ? {} : { min: stat.data.Min }),
        ...(stat.data.Max === undefined ? {} : { max: stat.data.Max }),
      });
    }
    const examples = dataset.data["Number of examples"];
    return {
      ok: true,
      metrics: {
        kind: "dataset",
        description: `Gym's dataset metrics: ${examples} examples${dataset.data.jsonl_fpath === undefined ? "" : ` of ${dataset.data.jsonl_fpath}`}.`,
        examples,
        jsonl_fpath: dataset.data.jsonl_fpath ?? null,
        stats,
      },
    };
  }
  const aggregate = AggregateMetricsSchema.safeParse(parsed.value);
  if (aggregate.success) {
    const agents = aggregate.data.map((entry) => ({
      agent: entry.agent_ref.name,
      numbers: { ...numbers(entry.agent_metrics), ...numbers(entry.key_metrics) },
    }));
    return {
      ok: true,
      metrics: {
        kind: "aggregate",
        description: `Gym's aggregate metrics for ${agents.length} agent${agents.length === 1 ? "" : "s"} (${agents.map((a) => a.agent).join(", ")}).`,
        agents,
      },
    };
  }
  return {
    ok: false,
    kind: "not_gym_metrics",
    message:
      'neither Gym\'s dataset metrics ("Number of examples") nor its aggregate metrics (a list of agent_ref/agent_metrics)',
  };
}
