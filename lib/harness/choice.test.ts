import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WORKPLACE_TOOLS } from "../verifiers/workplace_assistant";
import {
  agentOf,
  aliasFor,
  chooseFor,
  formatHarnessChoice,
  HARNESSES,
  harnessFor,
  inferByAgent,
  NO_HARNESS,
  parseHarnessChoice,
} from "./index";

const S = "workplace_assistant";

function parsed(text: string) {
  const p = parseHarnessChoice(text);
  if (!p.ok) throw new Error(p.error);
  return p.choice;
}

describe("harness choice per agent", () => {
  it("reads one harness for all, per-agent choices, and both", () => {
    expect(parsed("")).toEqual(NO_HARNESS);
    expect(parsed("hermes-legacy")).toEqual({ all: "hermes-legacy", agents: {} });
    expect(parsed("hermes_agent=hermes-legacy,claude_agent=claude-code")).toEqual({
      all: null,
      agents: { hermes_agent: "hermes-legacy", claude_agent: "claude-code" },
    });
    expect(parsed('codex,"a,b=c"=openclaw')).toEqual({ all: "codex", agents: { "a,b=c": "openclaw" } });
  });

  it("names what is wrong", () => {
    for (const bad of ["vim", "a=vim", "=codex", '"x=codex']) {
      const p = parseHarnessChoice(bad);
      expect(p.ok, bad).toBe(false);
      if (!p.ok) expect(p.error).toMatch(/harness|AGENT=HARNESS|unterminated/);
    }
  });

  it("formats back to the same choice for any agent names", () => {
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom(...HARNESSES), { nil: null }),
        fc.dictionary(fc.string({ minLength: 1 }), fc.constantFrom(...HARNESSES)),
        (all, agents) => {
          const choice = { all, agents };
          expect(parsed(formatHarnessChoice(choice))).toEqual(choice);
        },
      ),
    );
  });

  it('an agent named "__proto__" keeps its own choice', () => {
    const choice = parsed('"__proto__"=claude-code');
    expect(harnessFor(choice, "__proto__")).toBe("claude-code");
    expect(harnessFor(chooseFor(choice, "__proto__", "hermes-legacy"), "__proto__")).toBe("hermes-legacy");
    expect(harnessFor(choice, "other")).toBeNull();
  });

  it("an agent's choice applies to that agent only; the others keep the choice for all", () => {
    const choice = chooseFor(parsed("claude-code"), "hermes_agent", "hermes-legacy");
    expect(harnessFor(choice, "hermes_agent")).toBe("hermes-legacy");
    expect(harnessFor(choice, "claude_agent")).toBe("claude-code");
    expect(harnessFor(choice, null)).toBe("claude-code");
    expect(harnessFor(chooseFor(NO_HARNESS, "hermes_agent", "hermes-legacy"), "claude_agent")).toBeNull();
    expect(chooseFor(choice, "hermes_agent", null)).toEqual(parsed("claude-code"));
    // Object keys of the prototype are not agents.
    expect(harnessFor(NO_HARNESS, "constructor")).toBeNull();
  });

  it("reads agent_ref.name", () => {
    expect(agentOf({ agent_ref: { name: "a" } })).toBe("a");
    expect(agentOf({ agent_ref: { name: 3 } })).toBeNull();
    expect(agentOf({})).toBeNull();
  });

  it("infers a harness per agent from that agent's names only", () => {
    const tools = ["email_reply_email", "calendar_update_event"];
    const rows = [
      { agent: "hermes_agent", server: S, emitted: tools.map((t) => aliasFor("openclaw", S, t)) },
      { agent: "claude_agent", server: S, emitted: tools.map((t) => aliasFor("claude-code", S, t)) },
      { agent: "http_agent", server: S, emitted: tools },
      { agent: null, server: S, emitted: tools.map((t) => aliasFor("openclaw", S, t)) },
    ];
    const inferred = inferByAgent(rows, (server) => (server === S ? WORKPLACE_TOOLS : undefined));
    expect(inferred.map((i) => i.agent)).toEqual(["claude_agent", "hermes_agent", null]);
    expect(inferred[1]?.inference.harnesses).toEqual(["openclaw"]);
    expect(inferred[0]?.inference.harnesses).toContain("claude-code");
    expect(inferred[0]?.inference.harnesses).not.toContain("openclaw");
  });
});
