/**
 * The errors panel: its rows render apart from the rest of the page (deferred), and still name the line and
 * the reason of every error fetched, page after page through "show more".
 */
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import type { LineError } from "@/hooks/types";
import { LineErrors } from "./LineErrors";

const PAGE = 200;

function errorsFrom(start: number, count: number): LineError[] {
  return Array.from({ length: count }, (_, i) => ({
    line: start + i,
    offset: 0,
    length: 1,
    kind: "parse",
    line_kind: "not_json",
    error: `invalid JSON at column ${i + 1}`,
  }));
}

function Panel({ total }: { total: number }) {
  const [errors, setErrors] = useState(() => errorsFrom(2, PAGE));
  return (
    <LineErrors
      errors={errors}
      total={total}
      fileName="bad.jsonl"
      onMore={() => setErrors((shown) => [...shown, ...errorsFrom(2 + shown.length, PAGE)])}
    />
  );
}

describe("LineErrors", () => {
  it("names line and reason for every error shown, and show more adds the next page", async () => {
    const { container } = render(<Panel total={450} />);
    const rows = () => container.querySelectorAll("[data-error-line]");
    expect(rows()).toHaveLength(PAGE);
    expect(container.querySelector("[data-error-line='201']")?.textContent).toBe(
      "line 201 · not JSON: invalid JSON at column 200",
    );
    await userEvent.click(screen.getByTestId("more-line-errors"));
    expect(rows()).toHaveLength(2 * PAGE);
    expect(container.querySelector("[data-error-line='401']")?.textContent).toBe(
      "line 401 · not JSON: invalid JSON at column 200",
    );
    expect(screen.getByText(/and 50 more/)).toBeTruthy();
  });
});
