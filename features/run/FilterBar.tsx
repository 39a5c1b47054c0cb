import { memo, useMemo } from "react";
import chips from "@/components/chips.module.css";
import { cx } from "@/components/cx";
import { nameLabel } from "@/components/Name";
import { useDraft } from "@/hooks/use-draft";
import { KnownNames } from "@/lib/names";
import { type FilterClause, parseFilter, type Reward } from "@/lib/run";
import styles from "./FilterBar.module.css";
import {
  addClauses,
  clauseValue,
  FILTER_FLAGS,
  flagClause,
  flagLabel,
  hasClause,
  type SortKey,
  setClause,
  toggleClause,
} from "./list";

interface Props {
  /** The one filter (lib/run syntax): every control here edits one clause of it. */
  filter: string;
  onFilter(filter: string): void;
  /** The run view's reward setting: the zero chip counts zeros in it. */
  reward: Reward;
  agents: readonly string[];
  servers: readonly string[];
  shown: number;
  total: number;
  searching: boolean;
  searchRef?: React.Ref<HTMLInputElement>;
}

/**
 * The clauses of a search box's text that reads as a filter, every word of it a clause (a phrase with one
 * clause in it, "customer id recorded:0", stays a search: filtering would split it into word clauses), else null.
 */
export function filterTyped(text: string): readonly FilterClause[] | null {
  const trimmed = text.trim();
  if (!trimmed.includes(":")) return null;
  const parsed = parseFilter(trimmed);
  return parsed.ok && parsed.clauses.every((clause) => clause.kind !== "text") ? parsed.clauses : null;
}

/** The filter with the search's text replaced by those clauses; an agent, server or cause replaces its own. */
export function withTyped(filter: string, clauses: readonly FilterClause[]): string {
  let f = setClause(filter, "text", null);
  for (const clause of clauses)
    f =
      clause.kind === "agent" || clause.kind === "server" || clause.kind === "cause"
        ? setClause(f, clause.kind, clause)
        : addClauses(f, [clause]);
  return f;
}

export const FilterBar = memo(function FilterBar(props: Props) {
  const { filter, onFilter } = props;
  const [query, setQuery] = useDraft(clauseValue(filter, "text") ?? "", (text) =>
    onFilter(setClause(filter, "text", text.trim() === "" ? null : { kind: "text", value: text })),
  );
  // Filter syntax typed into the search box ("recorded:0..0") searches the bytes for it: offered as a filter
  // once the text is committed (a pending draft would write its text clause back over the filter).
  const searched = clauseValue(filter, "text") ?? "";
  const asFilter = useMemo(() => filterTyped(searched), [searched]);
  const agent = clauseValue(filter, "agent");
  const server = clauseValue(filter, "server");
  // Two options that look alike ("workplace_assistant" and one with a Latin alpha) are told apart; agents too.
  const serverNames = useMemo(() => new KnownNames(props.servers), [props.servers]);
  const agentNames = useMemo(() => new KnownNames(props.agents), [props.agents]);
  return (
    <div className={styles.filterbar}>
      <input
        ref={props.searchRef}
        type="search"
        className={styles.search}
        placeholder="Search every field…  ( / )"
        aria-label="Search rollouts"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {asFilter !== null && (
        <p className={styles.asFilter} data-testid="search-as-filter">
          Searched as text. <code>{searched.trim()}</code> is the filter's syntax:{" "}
          <button
            type="button"
            className="button-small"
            onClick={() => onFilter(withTyped(filter, asFilter))}
          >
            filter by it
          </button>
        </p>
      )}
      <div className={styles.filterFlags}>
        {FILTER_FLAGS.map((flag) => {
          const clause = flagClause(flag, props.reward);
          const on = hasClause(filter, clause);
          return (
            <button
              type="button"
              key={flag}
              className={cx(chips.chip, chips[`tone_${flag}`], on && chips.chipOn)}
              aria-pressed={on}
              data-filter={flag}
              onClick={() => onFilter(toggleClause(filter, clause))}
            >
              {flagLabel(flag, props.reward)}
            </button>
          );
        })}
      </div>
      <div className={styles.filterSelects}>
        <select
          aria-label="Agent"
          value={agent ?? ""}
          onChange={(event) =>
            onFilter(
              setClause(
                filter,
                "agent",
                event.target.value ? { kind: "agent", value: event.target.value } : null,
              ),
            )
          }
        >
          <option value="">all agents</option>
          {agent !== null && !props.agents.includes(agent) && (
            <option value={agent}>{nameLabel(agent, agentNames)}</option>
          )}
          {props.agents.map((name) => (
            <option key={name} value={name}>
              {nameLabel(name, agentNames)}
            </option>
          ))}
        </select>
        <select
          aria-label="Server"
          value={server ?? ""}
          onChange={(event) =>
            onFilter(
              setClause(
                filter,
                "server",
                event.target.value ? { kind: "server", value: event.target.value } : null,
              ),
            )
          }
        >
          <option value="">all servers</option>
          {server !== null && !props.servers.includes(server) && (
            <option value={server}>{nameLabel(server, serverNames)}</option>
          )}
          {props.servers.map((name) => (
            <option key={name} value={name}>
              {nameLabel(name, serverNames)}
            </option>
          ))}
        </select>
        <span className={styles.shown} data-testid="shown-count" data-shown={props.shown}>
          {props.searching ? "searching…" : `${props.shown} / ${props.total}`}
        </span>
        {filter.trim() !== "" && (
          <button type="button" className="link-button" onClick={() => onFilter("")}>
            clear
          </button>
        )}
      </div>
    </div>
  );
});

export type { SortKey };
