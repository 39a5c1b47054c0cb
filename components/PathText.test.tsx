import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PathText, pathParts } from "./PathText";

describe("PathText", () => {
  it("offers a break after each separator, and nowhere inside a name", () => {
    expect(pathParts("configs/workplace_assistant.yaml")).toEqual([
      "configs/",
      "workplace_",
      "assistant.",
      "yaml",
    ]);
    expect(pathParts("a--b/")).toEqual(["a-", "-", "b/"]);
    expect(pathParts("plain")).toEqual(["plain"]);
    const { container } = render(<PathText path="data/rollouts_hermes.jsonl" />);
    expect(container.textContent).toBe("data/rollouts_hermes.jsonl");
    expect(container.querySelectorAll("wbr")).toHaveLength(3);
  });
});
