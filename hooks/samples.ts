/**
 * The bundled samples index (public/samples/index.json) and the rule that pairs a rollouts sample with its
 * materialized-inputs sample. Pure: shared by the inspector and the compare page, and unit tested.
 */
import { z } from "zod";

export const SampleSchema = z.object({
  file: z.string(),
  title: z.string(),
  description: z.string().default(""),
  server: z.string().nullish(),
  kind: z.enum(["rollouts", "inputs"]),
});
export type Sample = z.infer<typeof SampleSchema>;

/** Bundled sample names are plain file names: nothing that could walk out of public/samples. */
const SAMPLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The bundled sample a `?sample=` name asks for, or null. Only files listed in index.json are samples:
 * public/samples also holds LICENSE and SOURCE.md, which must not open as data.
 */
export function bundledSample(name: string | null, samples: readonly Sample[]): Sample | null {
  if (name === null || !SAMPLE_NAME.test(name)) return null;
  return samples.find((s) => s.file === name) ?? null;
}

/**
 * The bundled inputs sample that goes with a bundled rollouts sample: either description names the other
 * file (the inspector's rule). Unrelated inputs would be wrong: pairing by (_ng_task_index,
 * _ng_rollout_index) would match rows of another run.
 */
export function pairedInputsSample(file: string, samples: readonly Sample[]): string | null {
  const rollouts = samples.find((s) => s.file === file && s.kind === "rollouts");
  if (rollouts === undefined) return null;
  const inputs = samples.find(
    (s) =>
      s.kind === "inputs" && (s.description.includes(rollouts.file) || rollouts.description.includes(s.file)),
  );
  return inputs?.file ?? null;
}
