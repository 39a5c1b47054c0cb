import type { LineError } from "@/hooks/types";

/**
 * A file's unreadable lines. `errors` are the ones fetched so far (the first page comes with the dataset's
 * summary), `total` how many there are; `onMore` asks for the next page.
 */
export function LineErrors({
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
  if (total === 0) return null;
  return (
    <details className="line-errors" open={total <= 5}>
      <summary>
        {total} line{total === 1 ? "" : "s"} of {fileName} could not be read
      </summary>
      <ul>
        {errors.map((error) => (
          <li key={error.line} data-error-line={error.line}>
            <span className="mono">line {error.line}</span>: {error.error}
          </li>
        ))}
      </ul>
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
}
