import { memo, useDeferredValue } from "react";
import type { LineError, LineKind } from "@/hooks/types";
import styles from "./LineErrors.module.css";

/** How each per-line kind (lib/folder) reads in the list. */
const KIND_LABEL: Readonly<Record<LineKind, string>> = {
  placeholder: "placeholder row",
  not_json: "not JSON",
  task_row: "task row without response",
  no_response: "record without response",
  not_a_rollout: "not a rollout",
};

/**
 * A file's unreadable lines. `errors` are the ones fetched so far (the first page comes with the dataset's
 * summary), `total` how many there are; `onMore` asks for the next page.
 */
export const LineErrors = memo(function LineErrors({
  errors,
  total,
  fileName,
  onMore,
}: {
  errors: readonly LineError[];
  total: number;
  fileName: string;
  onMore: () => void;
}) {
  // The list renders apart, interruptibly, after the rest of the page: the first page of errors arrives with
  // the dataset's summary, and mounting its rows in the same task made one long task of the whole inspector.
  const shown = useDeferredValue(errors, NO_ERRORS);
  if (total === 0) return null;
  return (
    <details className={styles.lineErrors} data-testid="line-errors" open={total <= 5}>
      <summary>
        {total} line{total === 1 ? "" : "s"} of {fileName} {total === 1 ? "is" : "are"} not a rollout
        {errors.length === total ? `: ${kindCounts(errors)}` : ""}
      </summary>
      <ErrorList errors={shown} />
      {total > errors.length && (
        <p className="muted">
          and {total - errors.length} more{" "}
          <button type="button" className="link-button" data-testid="more-line-errors" onClick={onMore}>
            show more
          </button>
        </p>
      )}
    </details>
  );
});

const NO_ERRORS: readonly LineError[] = [];

/** Memoized: a render of the page that leaves the errors as they were does not walk every row again. */
const ErrorList = memo(function ErrorList({ errors }: { errors: readonly LineError[] }) {
  return (
    <ul>
      {errors.map((error) => (
        <li key={error.line} data-error-line={error.line} data-kind={error.line_kind}>
          <span className="mono">line {error.line}</span> · {KIND_LABEL[error.line_kind]}: {error.error}
        </li>
      ))}
    </ul>
  );
});

function kindCounts(errors: readonly LineError[]): string {
  const counts = new Map<LineKind, number>();
  for (const error of errors) counts.set(error.line_kind, (counts.get(error.line_kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${KIND_LABEL[kind]}`).join(", ");
}
