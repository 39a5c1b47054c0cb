import { describe, expect, it } from "vitest";
import { ensureChromium, type Machine } from "./ensure-chromium";

function machine(
  over: Partial<Machine> & { present?: boolean; installs?: boolean },
): Machine & { ran: string[] } {
  let present = over.present ?? false;
  const ran: string[] = [];
  return {
    ran,
    executable: () => present,
    isRoot: over.isRoot ?? (() => true),
    hasApt: over.hasApt ?? (() => true),
    run(command, args) {
      ran.push([command, ...args].join(" "));
      if (args.includes("install") && (over.installs ?? true)) present = true;
      return over.installs ?? true;
    },
  };
}

describe("ensureChromium", () => {
  it("does nothing when Chromium is there", () => {
    const m = machine({ present: true });
    expect(ensureChromium(m, "/usr/bin/chromium")).toEqual({ ok: true, installed: false });
    expect(m.ran).toEqual([]);
  });

  it("installs it with apt as root", () => {
    const m = machine({});
    expect(ensureChromium(m, "/usr/bin/chromium")).toEqual({ ok: true, installed: true });
    expect(m.ran.at(-1)).toContain("apt-get install -y -qq chromium");
  });

  it("stops with the command to run when not root", () => {
    const m = machine({ isRoot: () => false });
    const outcome = ensureChromium(m, "/usr/bin/chromium");
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? "" : outcome.message).toMatch(/sudo apt-get install -y chromium/);
    expect(m.ran).toEqual([]);
  });

  it("stops when the install fails", () => {
    const m = machine({ installs: false });
    const outcome = ensureChromium(m, "/usr/bin/chromium");
    expect(outcome.ok).toBe(false);
  });

  it("never installs over a CHROMIUM_PATH that is not there", () => {
    const m = machine({});
    expect(ensureChromium(m, "/opt/chrome").ok).toBe(false);
    expect(m.ran).toEqual([]);
  });
});
