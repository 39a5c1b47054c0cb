import type { LineError } from "@/hooks/types";

/** Errors shown before the list says "and N more". */
export const MAX_LISTED_ERRORS = 200;

export function LineErrors({ errors, fileName }: { errors: readonly LineError[]; fileName: string }) {
  if (errors.length === 0) return null;
  return (
    <details className="line-errors" open={errors.length <= 5}>
      <summary>
        {errors.length} line{errors.length === 1 ? "" : "s"} of {fileName} could not be read
      </summary>
      <ul>
        {errors.slice(0, MAX_LISTED_ERRORS).map((error) => (
          <li key={error.line} data-error-line={error.line}>
            <span className="mono">line {error.line}</span>: {error.error}
          </li>
        ))}
      </ul>
      {errors.length > MAX_LISTED_ERRORS && (
        <p className="muted">and {errors.length - MAX_LISTED_ERRORS} more</p>
      )}
    </details>
  );
}
