/**
 * The views of one parsed rollout (./core.ts).
 */
import { describe, expect, it } from "vitest";
import { readRollout } from "@/lib/schemas";
import { transcript } from "./core";

describe("transcript", () => {
  it("pairs each output with its call by call_id, in order, also for repeated call_ids", () => {
    const read = readRollout({
      response: {
        output: [
          { type: "function_call", name: "a", call_id: "x", arguments: "{}" },
          { type: "function_call", name: "b", call_id: "x", arguments: "{}" },
          { type: "function_call_output", call_id: "x", output: "first" },
          { type: "function_call_output", call_id: "x", output: "second" },
          { type: "function_call_output", call_id: "orphan", output: "lost" },
          { type: "function_call", name: "c", arguments: "{}" },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] },
        ],
      },
    });
    if (!read.ok) throw new Error(read.issues.join("; "));
    const items = transcript(read.rollout);
    expect(
      items.map((item) =>
        item.kind === "call"
          ? `${item.name}:${item.output}`
          : item.kind === "output"
            ? `unpaired:${item.output}`
            : item.kind,
      ),
    ).toEqual(["a:first", "b:second", "unpaired:lost", "c:null", "message"]);
  });
});
