import type { CallResolution } from "@/hooks/types";
import { FlagChip, StatusBadge } from "./badges";

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

/** Every call's identity: what the harness emitted, what provenance says, and what the verifier sees. */
export function CallTable({ calls, legacy, selected, onSelect }: Props) {
  if (calls.length === 0) return <p className="muted">This rollout makes no function calls.</p>;
  return (
    <table className="calls" aria-label="Call identities">
      <thead>
        <tr>
          <th className="c-idx">#</th>
          <th>emitted alias</th>
          <th>provenance (server / tool)</th>
          <th>status</th>
          <th>verifier sees</th>
          <th title="what a Gym run before provenance would have shown its verifier">legacy sees</th>
        </tr>
      </thead>
      <tbody>
        {calls.map((call) => {
          const old = legacy[call.index];
          const differs = old !== undefined && old.verifier_name !== call.verifier_name;
          return [
            <tr
              key={call.index}
              className={`call-row hl-${call.highlight}${selected === call.index ? " selected" : ""}`}
              data-call-id={call.call_id ?? ""}
              data-call-index={call.index}
              data-status={call.status}
              data-highlight={call.highlight}
              data-verifier-name={call.verifier_name}
              onClick={() => onSelect(call.index)}
            >
              <td className="c-idx mono">{call.index}</td>
              <td className="mono emitted" title={call.call_id ? `call_id ${call.call_id}` : "no call_id"}>
                {call.emitted}
              </td>
              <td className="mono">
                {call.provenance ? (
                  <>
                    <span className="prov-server">{call.provenance.server_name}</span>
                    <span className="prov-sep"> / </span>
                    <span className="prov-tool">{call.provenance.tool_name}</span>
                  </>
                ) : (
                  <span className="muted">none</span>
                )}
              </td>
              <td>
                <StatusBadge status={call.status} highlight={call.highlight} />
              </td>
              <td className="mono verifier">{call.verifier_name}</td>
              <td
                className={`mono verifier${differs ? " legacy-differs" : " muted"}`}
                data-legacy-status={old?.status}
              >
                {old?.verifier_name ?? "—"}
              </td>
            </tr>,
            <tr key={`${call.index}-why`} className={`call-why hl-${call.highlight}`}>
              <td />
              <td colSpan={5}>
                <div className="why">{call.explanation}</div>
                {call.flags.map((flag) => (
                  <div className="why why-flag" key={flag.name} data-flag={flag.name}>
                    <FlagChip name={flag.name} highlight={FLAG_HIGHLIGHT[flag.name]} /> {flag.message}
                  </div>
                ))}
              </td>
            </tr>,
          ];
        })}
      </tbody>
    </table>
  );
}
