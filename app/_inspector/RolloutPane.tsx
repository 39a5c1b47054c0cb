"use client";
import { useEffect } from "react";
import { CallTable } from "@/components/CallTable";
import { RawLine } from "@/components/RawLine";
import { RolloutHeader, TaskFields } from "@/components/RolloutHeader";
import { Transcript } from "@/components/Transcript";
import { VerificationPanel } from "@/components/VerificationPanel";
import { useDetail, useRawLine, useServers } from "@/hooks/data";
import type { DatasetSummary, HarnessId, RolloutIndexEntry } from "@/hooks/types";
import type { ViewUpdate } from "@/hooks/use-view-state";

interface Props {
  dataset: DatasetSummary;
  entry: RolloutIndexEntry;
  call: number | null;
  server: string | null;
  harness: HarnessId | null;
  onView(update: ViewUpdate, options?: { push?: boolean }): void;
}

export function RolloutPane({ dataset, entry, call, server, harness, onView }: Props) {
  // One request: the transcript, every call's resolution and both verifications, from one parse.
  const detail = useDetail(dataset, entry.line, server, harness);
  const servers = useServers();
  const fetchRaw = useRawLine();

  // Bring the selected call's card into view once it exists (a deep link selects it before it renders).
  const settled = detail.data !== undefined && detail.data !== null && !detail.isFetching;
  useEffect(() => {
    if (call === null || !settled) return;
    document.getElementById(`call-${call}`)?.scrollIntoView({ block: "nearest" });
  }, [call, settled]);

  const view = detail.data;
  if (detail.isError) return <div className="banner banner-error">Could not open line {entry.line}.</div>;
  if (!view || view.line !== entry.line) {
    return <div className="placeholder muted">Opening line {entry.line}…</div>;
  }
  const calls = view.calls;
  const select = (index: number) => onView({ call: String(index) });
  return (
    <article
      className="detail"
      data-detail-line={entry.line}
      data-verified={detail.isSuccess && !detail.isPlaceholderData && !detail.isFetching}
    >
      <RolloutHeader view={view} fileName={dataset.name} />
      <VerificationPanel
        view={view.verification}
        loading={detail.isFetching}
        servers={servers.data ?? []}
        server={server}
        defaultServer={entry.server}
        defaultSource={entry.server_source}
        onServer={(next) => onView({ server: next })}
        harness={harness}
      />
      <section className="identity" aria-label="Call identities">
        <h3>
          Calls <span className="muted">({calls.length})</span>
        </h3>
        <CallTable calls={calls} selected={call} onSelect={select} />
      </section>
      <section className="transcript-section" aria-label="Transcript">
        <h3>Transcript</h3>
        <Transcript
          key={entry.line}
          input={view.input}
          items={view.items}
          selected={call}
          onSelect={select}
        />
      </section>
      <TaskFields fields={view.extra_fields} />
      <RawLine
        byteLength={view.byte_length}
        fileName={dataset.name}
        line={entry.line}
        fetchBytes={() => fetchRaw(dataset.id, entry.line)}
      />
    </article>
  );
}
