import type { z } from "zod";

/** Turns zod issues into readable one-line reasons: `response.output.2.name: expected a string`. */
export function formatIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): string[] {
  return issues.map((issue) => {
    const path = [...prefix, ...issue.path].map(String).join(".");
    return path === "" ? issue.message : `${path}: ${issue.message}`;
  });
}
