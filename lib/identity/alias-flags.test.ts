import { describe, expect, it } from "vitest";
import { aliasFor, HARNESSES } from "../harness";
import { resolveRollout } from ".";
import { rolloutWith } from "./test-helpers";
import type { CallResolution, Flag } from "./types";

const S = "workplace_assistant";
const tools = ["email_send_email", "calendar_create_event"];
const flag = (c: CallResolution | undefined, name: Flag["name"]) => c?.flags.find((f) => f.name === name);

describe("alias_disagrees", () => {
  const provenance = { c0: { server_name: S, tool_name: "email_send_email" } };

  it("flags a valid entry whose alias under the chosen harness is not the emitted name", () => {
    const r = resolveRollout(
      rolloutWith([{ name: `mcp_${S}_email_send_email`, call_id: "c0" }], provenance),
      {
        server: S,
        harness: "claude-code",
      },
    );
    const c = r.calls[0];
    expect(c?.status).toBe("canonical");
    expect(c?.verifier_name).toBe("email_send_email");
    expect(flag(c, "alias_disagrees")?.expected_alias).toBe(`mcp__${S}__email_send_email`);
    expect(c?.highlight).toBe("mismatched");
  });

  it("is silent when the alias matches, when no harness is given, and without a valid entry", () => {
    const matching = resolveRollout(
      rolloutWith([{ name: `mcp__${S}__email_send_email`, call_id: "c0" }], provenance),
      {
        server: S,
        harness: "claude-code",
      },
    );
    expect(matching.calls[0]?.flags).toEqual([]);
    const noHarness = resolveRollout(rolloutWith([{ name: "whatever", call_id: "c0" }], provenance), {
      server: S,
    });
    expect(noHarness.calls[0]?.flags).toEqual([]);
    const malformed = resolveRollout(
      rolloutWith([{ name: "whatever", call_id: "c0" }], { c0: { server_name: S } }),
      {
        server: S,
        harness: "claude-code",
      },
    );
    expect(flag(malformed.calls[0], "alias_disagrees")).toBeUndefined();
  });

  it("also checks entries of other servers (external calls)", () => {
    const r = resolveRollout(
      rolloutWith([{ name: "github__create_issue", call_id: "c0" }], {
        c0: { server_name: "github", tool_name: "create_issue" },
      }),
      { server: S, harness: "hermes-legacy" },
    );
    expect(r.calls[0]?.status).toBe("external");
    expect(flag(r.calls[0], "alias_disagrees")?.expected_alias).toBe("mcp_github_create_issue");
    expect(r.calls[0]?.verifier_name).toBe("github__create_issue");
  });

  it("never applies under policy legacy (the map is ignored)", () => {
    const r = resolveRollout(rolloutWith([{ name: "x", call_id: "c0" }], provenance), {
      server: S,
      harness: "claude-code",
      policy: "legacy",
    });
    expect(r.calls[0]?.flags).toEqual([]);
  });
});

describe("alias_guess", () => {
  it("lists every (harness, tool) whose alias of S's tool equals a bare emitted name", () => {
    const emitted = `mcp_${S}_email_send_email`;
    const r = resolveRollout(rolloutWith([{ name: emitted, call_id: "c0" }]), { server: S, tools });
    const c = r.calls[0];
    expect(c?.status).toBe("bare");
    expect(c?.verifier_name).toBe(emitted);
    const candidates = flag(c, "alias_guess")?.candidates ?? [];
    // Hermes legacy (mcp_{S}_{T}) and Gemini CLI (mcp_ + S_T) both give this name.
    expect(candidates).toContainEqual({ harness: "hermes-legacy", tool: "email_send_email" });
    expect(candidates).toContainEqual({ harness: "gemini-cli", tool: "email_send_email" });
    const expected = HARNESSES.flatMap((harness) =>
      tools.filter((tool) => aliasFor(harness, S, tool) === emitted).map((tool) => ({ harness, tool })),
    );
    expect(candidates).toEqual(expected);
    expect(c?.highlight).toBe("ambiguous");
  });

  it("applies to non_mcp calls too", () => {
    const r = resolveRollout(rolloutWith([{ name: `mcp__${S}__calendar_create_event`, call_id: "c0" }], {}), {
      server: S,
      tools,
    });
    expect(r.calls[0]?.status).toBe("non_mcp");
    const candidates = flag(r.calls[0], "alias_guess")?.candidates ?? [];
    expect(candidates).toContainEqual({ harness: "claude-code", tool: "calendar_create_event" });
    expect(candidates.every((c) => c.tool === "calendar_create_event")).toBe(true);
  });

  it("is silent for names that are no alias, without tools, and for other statuses", () => {
    const none = resolveRollout(rolloutWith([{ name: "email_send_email", call_id: "c0" }]), {
      server: S,
      tools,
    });
    expect(none.calls[0]?.flags).toEqual([]);
    const noTools = resolveRollout(rolloutWith([{ name: `mcp_${S}_email_send_email`, call_id: "c0" }]), {
      server: S,
    });
    expect(noTools.calls[0]?.flags).toEqual([]);
    const legacy = resolveRollout(rolloutWith([{ name: `mcp__${S}__email_send_email`, call_id: "c0" }]), {
      server: S,
      tools,
    });
    expect(legacy.calls[0]?.status).toBe("legacy");
    expect(legacy.calls[0]?.flags).toEqual([]);
  });
});

describe("alias_collision", () => {
  // Claude Code maps both " " and "_" to "_", so (team store, append) and (team_store, append) share an alias.
  const rollout = rolloutWith([{ name: "mcp__team_store__append", call_id: "c0" }], {
    c0: { server_name: "team_store", tool_name: "append" },
  });

  it("lists the distinct known identities that produce the emitted name under the chosen harness", () => {
    const r = resolveRollout(rollout, { server: "team store", tools: ["append"], harness: "claude-code" });
    const c = r.calls[0];
    expect(c?.status).toBe("external");
    expect(c?.flags.map((f) => f.name)).toEqual(["server_near_miss", "alias_collision"]);
    expect(flag(c, "alias_collision")?.identities).toEqual([
      { server: "team store", tool: "append" },
      { server: "team_store", tool: "append" },
    ]);
    expect(c?.verifier_name).toBe("mcp__team_store__append");
  });

  it("needs a harness, and under a harness that keeps the two apart there is no collision", () => {
    const noHarness = resolveRollout(rollout, { server: "team store", tools: ["append"] });
    expect(flag(noHarness.calls[0], "alias_collision")).toBeUndefined();
    // OpenClaw turns " " into "-": team-store__append vs team_store__append.
    const openclaw = resolveRollout(rollout, {
      server: "team store",
      tools: ["append"],
      harness: "openclaw",
    });
    expect(flag(openclaw.calls[0], "alias_collision")).toBeUndefined();
  });

  it("under policy legacy only S's tools are known, so the same name is a guess, not a collision", () => {
    const r = resolveRollout(rollout, {
      server: "team store",
      tools: ["append"],
      harness: "claude-code",
      policy: "legacy",
    });
    const c = r.calls[0];
    expect(c?.status).toBe("bare");
    expect(c?.flags.map((f) => f.name)).toEqual(["alias_guess"]);
  });

  it("counts provenance identities against the tools of S", () => {
    // (a__b, c) and (a, b__c): Claude Code gives both mcp__a__b__c.
    const r = resolveRollout(
      rolloutWith([{ name: "mcp__a__b__c", call_id: "c0" }], { c0: { server_name: "a", tool_name: "b__c" } }),
      { server: "a__b", tools: ["c"], harness: "claude-code" },
    );
    expect(flag(r.calls[0], "alias_collision")?.identities).toEqual([
      { server: "a__b", tool: "c" },
      { server: "a", tool: "b__c" },
    ]);
  });
});
