import type { LineError, LineKind } from "@/hooks/types";

/** How each per-line kind (lib/folder) reads in the list. */
const KIND_LABEL: Readonly<Record<LineKind, string>> = {
  placeholder: "placeholder row",
  not_json: "not JSON",
  task_row: "task row without response",
  no_response: "record without response",
  not_a_rollout: "not a rollout",
};

/** Errors shown before the list says "and N more". */
export const MAX_LISTED_ERRORS = 200;

export function LineErrors({ errors, fileName }: { errors: readonly LineError[]; fileName: string }) {
  if (errors.length === 0) return null;
  return (
    <details className="line-errors" open={errors.length <= 5}>
      <summary>
        {errors.length} line{errors.length === 1 ? "" : "s"} of {fileName}{" "}
        {errors.length === 1 ? "is" : "are"} not a rollout: {kindCounts(errors)}
      </summary>
      <ul>
        {errors.slice(0, MAX_LISTED_ERRORS).map((error) => (
          <li key={error.line} data-error-line={error.line} data-kind={error.line_kind}>
            <span className="mono">line {error.line}</span> · {KIND_LABEL[error.line_kind]}: {error.error}
          </li>
        ))}
      </ul>
      {errors.length > MAX_LISTED_ERRORS && (
        <p className="muted">and {errors.length - MAX_LISTED_ERRORS} more</p>
      )}
    </details>
  );
}

function kindCounts(errors: readonly LineError[]): string {
  const counts = new Map<LineKind, number>();
  for (const error of errors) counts.set(error.line_kind, (counts.get(error.line_kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${KIND_LABEL[kind]}`).join(", ");
}
