import type { CallResolution } from "@/hooks/types";
import { FlagChip, StatusBadge } from "./badges";
import { Name } from "./Name";

const FLAG_HIGHLIGHT = {
  server_near_miss: "mismatched",
  unknown_tool: "mismatched",
  alias_disagrees: "mismatched",
  alias_guess: "ambiguous",
  alias_collision: "ambiguous",
} as const;

interface Props {
  calls: readonly CallResolution[];
  /** The same calls under policy legacy, by index. */
  legacy: readonly CallResolution[];
  selected: number | null;
  onSelect(index: number): void;
}

/**
 * Every call's identity: what the harness emitted, what provenance says, and what the verifier sees under
 * each policy. One compact block per call, so long aliases stay on one line instead of wrapping per letter.
 */
export function CallTable({ calls, legacy, selected, onSelect }: Props) {
  if (calls.length === 0) return <p className="muted">This rollout makes no function calls.</p>;
  return (
    <ol className="calls" aria-label="Call identities">
      {calls.map((call) => {
        const old = legacy[call.index];
        const differs = old !== undefined && old.verifier_name !== call.verifier_name;
        return (
          <li
            key={call.index}
            className={`call-row hl-${call.highlight}${selected === call.index ? " selected" : ""}`}
            data-call-id={call.call_id ?? ""}
            data-call-index={call.index}
            data-status={call.status}
            data-highlight={call.highlight}
            data-verifier-name={call.verifier_name}
            data-legacy-status={old?.status}
          >
            <button type="button" className="call-select" onClick={() => onSelect(call.index)}>
              <span className="call-index mono">{call.index}</span>
              <StatusBadge status={call.status} highlight={call.highlight} />
              <span className="mono emitted" title="emitted name">
                <Name value={call.emitted} />
              </span>
              <span className="mono muted call-id">
                {call.call_id === null ? (
                  "no call_id"
                ) : call.call_id === "" ? (
                  '""'
                ) : (
                  <Name value={call.call_id} />
                )}
              </span>
            </button>
            <dl className="identity-grid">
              <dt>provenance</dt>
              <dd className="mono">
                {call.provenance ? (
                  <>
                    <span className="prov-server">
                      <Name value={call.provenance.server_name} />
                    </span>
                    <span className="prov-sep"> / </span>
                    <span className="prov-tool">
                      <Name value={call.provenance.tool_name} />
                    </span>
                  </>
                ) : (
                  <span className="muted">none</span>
                )}
              </dd>
              <dt>verifier sees</dt>
              <dd className="mono verifier">
                <Name value={call.verifier_name} />
                {call.verifier_name === call.emitted && <span className="muted same"> (emitted name)</span>}
              </dd>
              <dt title="what a Gym run before provenance showed its verifier">legacy saw</dt>
              <dd className={`mono verifier${differs ? " legacy-differs" : " muted"}`}>
                {differs && old ? <Name value={old.verifier_name} /> : "the same"}
                {old && old.status !== call.status && <span className="muted"> ({old.status})</span>}
              </dd>
            </dl>
            <div className="why">{call.explanation}</div>
            {call.flags.map((flag) => (
              <div className="why why-flag" key={flag.name} data-flag={flag.name}>
                <FlagChip name={flag.name} highlight={FLAG_HIGHLIGHT[flag.name]} /> {flag.message}
              </div>
            ))}
          </li>
        );
      })}
    </ol>
  );
}
