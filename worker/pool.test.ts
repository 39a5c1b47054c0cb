/** The page's setup messages to the data worker and the pool workers, as each narrows them. */
import { describe, expect, it } from "vitest";
import { PoolPortMessage, PoolPortsMessage, poolSize } from "@/worker/pool";

describe("pool setup messages", () => {
  it("accept real ports and refuse anything else", () => {
    const channel = new MessageChannel();
    expect(PoolPortsMessage.safeParse({ type: "pool", ports: [channel.port1] }).success).toBe(true);
    expect(PoolPortMessage.safeParse({ type: "port", port: channel.port2 }).success).toBe(true);
    // No ports, a port that is not one, another message's type, a beat.
    expect(PoolPortsMessage.safeParse({ type: "pool", ports: [] }).success).toBe(false);
    expect(PoolPortsMessage.safeParse({ type: "pool", ports: [{}] }).success).toBe(false);
    expect(PoolPortMessage.safeParse({ type: "port", port: "port" }).success).toBe(false);
    expect(PoolPortMessage.safeParse({ type: "pool", port: channel.port2 }).success).toBe(false);
    expect(PoolPortMessage.safeParse({ type: "beat", on: true }).success).toBe(false);
    channel.port1.close();
  });

  it("has one worker per reported core, at least one and at most eight", () => {
    expect(poolSize(undefined)).toBe(1);
    expect(poolSize(0)).toBe(1);
    expect(poolSize(2)).toBe(2);
    expect(poolSize(64)).toBe(8);
  });
});
