import { useMemo } from "react";
import type { FilterFlag, SortKey } from "@/hooks/types";
import { useDraft } from "@/hooks/use-draft";
import { FILTER_FLAGS } from "@/hooks/view-state";
import { KnownNames } from "@/lib/names";
import { nameLabel } from "./Name";

const FLAG_LABEL: Record<FilterFlag, string> = {
  zero: "recorded 0",
  changed: "reward changed",
  ambiguous: "ambiguous",
  mismatched: "mismatched",
  external: "external",
  unverified: "unverified",
};

interface Props {
  query: string;
  onQuery(query: string): void;
  filters: readonly FilterFlag[];
  onToggle(flag: FilterFlag): void;
  agents: readonly string[];
  agent: string | null;
  onAgent(agent: string | null): void;
  envs: readonly string[];
  env: string | null;
  onEnv(env: string | null): void;
  shown: number;
  total: number;
  searching: boolean;
  onClear(): void;
  searchRef?: React.Ref<HTMLInputElement>;
}

export function FilterBar(props: Props) {
  const { filters, onToggle } = props;
  const [query, setQuery] = useDraft(props.query, props.onQuery);
  // Two options that look alike ("workplace_assistant" and one with a Latin alpha) are told apart.
  const envNames = useMemo(() => new KnownNames(props.envs), [props.envs]);
  const any = filters.length > 0 || props.agent !== null || props.env !== null || props.query !== "";
  return (
    <div className="filterbar">
      <input
        ref={props.searchRef}
        type="search"
        className="search"
        placeholder="Search every field…  ( / )"
        aria-label="Search rollouts"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <div className="filter-flags">
        {FILTER_FLAGS.map((flag) => (
          <button
            type="button"
            key={flag}
            className={`chip chip-${flag}${filters.includes(flag) ? " chip-on" : ""}`}
            aria-pressed={filters.includes(flag)}
            data-filter={flag}
            onClick={() => onToggle(flag)}
          >
            {FLAG_LABEL[flag]}
          </button>
        ))}
      </div>
      <div className="filter-selects">
        <select
          aria-label="Agent"
          value={props.agent ?? ""}
          onChange={(event) => props.onAgent(event.target.value || null)}
        >
          <option value="">all agents</option>
          {props.agents.map((agent) => (
            <option key={agent} value={agent}>
              {agent}
            </option>
          ))}
        </select>
        <select
          aria-label="Server"
          value={props.env ?? ""}
          onChange={(event) => props.onEnv(event.target.value || null)}
        >
          <option value="">all servers</option>
          {props.envs.map((env) => (
            <option key={env} value={env}>
              {nameLabel(env, envNames)}
            </option>
          ))}
        </select>
        <span className="shown" data-testid="shown-count" data-shown={props.shown}>
          {props.searching ? "searching…" : `${props.shown} / ${props.total}`}
        </span>
        {any && (
          <button type="button" className="link-button" onClick={props.onClear}>
            clear
          </button>
        )}
      </div>
    </div>
  );
}

export type { SortKey };
