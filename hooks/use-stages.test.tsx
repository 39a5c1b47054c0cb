import { renderHook, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useStages } from "./use-stages";

describe("useStages", () => {
  it("mounts one stage first, then one more per task, and starts over for a new key", async () => {
    const hook = renderHook(({ key }: { key: string | null }) => useStages(key, 3), {
      initialProps: { key: "a" },
    });
    expect(hook.result.current).toBe(1);
    await waitFor(() => expect(hook.result.current).toBe(3));
    hook.rerender({ key: "b" });
    expect(hook.result.current).toBe(1);
    await waitFor(() => expect(hook.result.current).toBe(3));
  });

  it("without a key there is nothing to stage", () => {
    expect(renderHook(() => useStages(null, 3)).result.current).toBe(1);
  });
});
