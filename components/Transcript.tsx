"use client";
import { useState } from "react";
import type { InputMessage, TranscriptItem } from "@/hooks/types";
import { StatusBadge } from "./badges";
import { CodeBlock } from "./CodeBlock";
import { Markdown } from "./Markdown";
import { Name } from "./Name";

/** Longer message texts are folded behind a "show all" button. */
export const FOLD_TEXT_CHARS = 1_500;
/** Output items rendered at first; more on request, so a very long rollout opens in one short task. */
export const TRANSCRIPT_BATCH = 60;

function FoldedText({ text, markdown = false }: { text: string; markdown?: boolean }) {
  const [open, setOpen] = useState(false);
  const body = (shown: string) => (markdown ? <Markdown text={shown} /> : shown);
  if (text.length <= FOLD_TEXT_CHARS) return <div className="msg-text">{body(text)}</div>;
  return (
    <div className="msg-text">
      {open ? body(text) : body(`${text.slice(0, FOLD_TEXT_CHARS)}…`)}
      <button type="button" className="link-button" onClick={() => setOpen(!open)}>
        {open ? "show less" : `show all ${text.length.toLocaleString("en-US")} characters`}
      </button>
    </div>
  );
}

interface Props {
  input: readonly InputMessage[];
  items: readonly TranscriptItem[];
  selected: number | null;
  onSelect(index: number): void;
}

export function Transcript({ input, items, selected, onSelect }: Props) {
  const [showPrompt, setShowPrompt] = useState(false);
  const [limit, setLimit] = useState(TRANSCRIPT_BATCH);
  // A selected call is always rendered, however far down it is.
  const selectedAt =
    selected === null ? -1 : items.findIndex((item) => item.kind === "call" && item.call_index === selected);
  const shown = items.slice(0, Math.max(limit, selectedAt + 1));
  return (
    <div className="transcript">
      {input.length > 0 && (
        <div className="prompt">
          <button type="button" className="link-button" onClick={() => setShowPrompt(!showPrompt)}>
            {showPrompt ? "hide" : "show"} prompt ({input.length} message{input.length === 1 ? "" : "s"})
          </button>
          {showPrompt &&
            input.map((message, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: prompt messages have no ids.
              <div className={`item item-message role-${message.role}`} key={index}>
                <div className="item-head">{message.role}</div>
                <FoldedText text={message.text} />
              </div>
            ))}
        </div>
      )}
      {shown.map((item) => {
        switch (item.kind) {
          case "message":
            return (
              <div className={`item item-message role-${item.role}`} key={item.output_index}>
                <div className="item-head">{item.role}</div>
                <FoldedText text={item.text} markdown={item.role === "assistant"} />
              </div>
            );
          case "reasoning":
            return (
              <div className="item item-reasoning" key={item.output_index}>
                <div className="item-head">reasoning</div>
                <FoldedText text={item.text || "(no summary)"} />
              </div>
            );
          case "call": {
            const call = item.contract;
            return (
              <div
                className={`item item-call hl-${call?.highlight ?? "none"}${selected === item.call_index ? " selected" : ""}`}
                key={item.output_index}
                id={`call-${item.call_index}`}
                data-transcript-call={item.call_index}
              >
                <button
                  type="button"
                  className="item-head call-head"
                  onClick={() => onSelect(item.call_index)}
                >
                  <span className="mono call-name">
                    <Name value={item.name} />
                  </span>
                  {call && call.verifier_name !== item.name && (
                    <span className="mono muted">
                      {" → "}
                      <Name value={call.verifier_name} />
                    </span>
                  )}
                  {call && <StatusBadge status={call.status} highlight={call.highlight} />}
                  <span className="mono muted call-id">
                    {item.call_id === null ? "no call_id" : <Name value={item.call_id} />}
                  </span>
                </button>
                <div className="call-body">
                  <div className="call-part">
                    <div className="part-label">arguments</div>
                    <CodeBlock text={item.arguments} label="arguments" />
                  </div>
                  <div className="call-part">
                    <div className="part-label">output</div>
                    {item.output === null ? (
                      <div className="muted">no function_call_output with this call_id</div>
                    ) : (
                      <CodeBlock text={item.output} label="output" />
                    )}
                  </div>
                </div>
              </div>
            );
          }
          case "output":
            return (
              <div className="item item-output" key={item.output_index}>
                <div className="item-head">
                  unpaired output <span className="mono muted">{item.call_id ?? ""}</span>
                </div>
                <CodeBlock text={item.output} label="output" />
              </div>
            );
          case "other":
            return (
              <div className="item item-other" key={item.output_index}>
                <div className="item-head mono">{item.type}</div>
                <CodeBlock text={item.json} label={item.type} />
              </div>
            );
        }
        return null;
      })}
      {shown.length < items.length && (
        <button
          type="button"
          className="button-small more-items"
          onClick={() => setLimit(shown.length + TRANSCRIPT_BATCH)}
        >
          show {Math.min(TRANSCRIPT_BATCH, items.length - shown.length)} more of {items.length - shown.length}{" "}
          remaining items
        </button>
      )}
    </div>
  );
}
