"use client";
import { memo, useCallback, useDeferredValue, useEffect } from "react";
import { CallTable } from "@/components/CallTable";
import { RawLine } from "@/components/RawLine";
import { RolloutHeader, TaskFields } from "@/components/RolloutHeader";
import { Transcript } from "@/components/Transcript";
import { VerificationPanel } from "@/components/VerificationPanel";
import { useDetail, useRawLine, useServers } from "@/hooks/data";
import type { DatasetSummary, DetailView, HarnessId, RolloutIndexEntry } from "@/hooks/types";
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
  // A newly opened detail renders in a background (interruptible) render: a long transcript is laid out
  // in slices instead of one long task.
  const view = useDeferredValue(detail.data);

  // Bring the selected call's card into view once it exists (a deep link selects it before it renders).
  const settled = view !== undefined && view !== null && view === detail.data && !detail.isFetching;
  useEffect(() => {
    if (call === null || !settled) return;
    document.getElementById(`call-${call}`)?.scrollIntoView({ block: "nearest" });
  }, [call, settled]);

  if (detail.isError) return <div className="banner banner-error">Could not open line {entry.line}.</div>;
  if (!view || view.line !== entry.line) {
    return <div className="placeholder muted">Opening line {entry.line}…</div>;
  }
  return (
    <DetailBody
      view={view}
      verified={detail.isSuccess && !detail.isPlaceholderData && !detail.isFetching && view === detail.data}
      loading={detail.isFetching}
      datasetId={dataset.id}
      fileName={dataset.name}
      call={call}
      server={server}
      harness={harness}
      servers={servers.data ?? NO_SERVERS}
      defaultServer={entry.server}
      defaultSource={entry.server_source}
      onView={onView}
      fetchRaw={fetchRaw}
    />
  );
}

const NO_SERVERS: readonly string[] = [];

interface BodyProps {
  view: DetailView;
  verified: boolean;
  loading: boolean;
  datasetId: string;
  fileName: string;
  call: number | null;
  server: string | null;
  harness: HarnessId | null;
  servers: readonly string[];
  defaultServer: RolloutIndexEntry["server"];
  defaultSource: RolloutIndexEntry["server_source"];
  onView(update: ViewUpdate, options?: { push?: boolean }): void;
  fetchRaw(dataset: string, line: number): Promise<Uint8Array | null>;
}

/**
 * The detail itself, memoized: the page re-renders at every streamed revision (new rows, new rewards),
 * and a long transcript must not be rendered again each time when nothing in it changed.
 */
const DetailBody = memo(function DetailBody({
  view,
  verified,
  loading,
  datasetId,
  fileName,
  call,
  server,
  harness,
  servers,
  defaultServer,
  defaultSource,
  onView,
  fetchRaw,
}: BodyProps) {
  const calls = view.calls;
  const line = view.line;
  const select = useCallback((index: number) => onView({ call: String(index) }), [onView]);
  return (
    <article className="detail" data-detail-line={line} data-verified={verified}>
      <RolloutHeader view={view} fileName={fileName} />
      <VerificationPanel
        view={view.verification}
        loading={loading}
        servers={servers}
        server={server}
        defaultServer={defaultServer}
        defaultSource={defaultSource}
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
        <Transcript key={line} input={view.input} items={view.items} selected={call} onSelect={select} />
      </section>
      <TaskFields fields={view.extra_fields} />
      <RawLine
        byteLength={view.byte_length}
        fileName={fileName}
        line={line}
        fetchBytes={() => fetchRaw(datasetId, line)}
      />
    </article>
  );
});
