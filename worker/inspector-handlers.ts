/**
 * The inspector's requests, answered by the data service (the compare page's are in ./compare-handlers.ts).
 */
import { DetailPages } from "./detail-pages";
import { highlightJson } from "./highlight";
import type { InspectorRequests } from "./protocol";
import type { Handlers } from "./rpc";
import type { DataService } from "./service";

export function inspectorHandlers(service: DataService): Handlers<InspectorRequests> {
  const details = new DetailPages(
    ({ dataset, line, server, harness }) => service.detail(dataset, line, server, harness),
    ({ dataset, line, server, harness }) => service.detailVerification(dataset, line, server, harness),
  );
  return {
    load: ({ sources, fallbackServer }, { signal, progress }) =>
      service.load(sources, fallbackServer ?? null, signal, progress),
    loadFolder: ({ name, entries }, { signal, progress }) =>
      service.loadFolder(name, entries, signal, progress),
    setRole: ({ path, role }, { signal, progress }) => service.setRole(path, role, signal, progress),
    fileOf: ({ dataset }) => service.fileOf(dataset),
    restore: ({ ids }, { signal, progress }) => service.restore(ids, signal, progress),
    recent: () => service.recent(),
    session: () => service.session(),
    reanalyze: ({ dataset, server, harness }) => service.reanalyze(dataset, server, harness),
    changes: ({ dataset, since }) => service.changes(dataset, since),
    lineErrors: ({ dataset, start, end }) => service.lineErrors(dataset, start, end),
    prioritize: ({ dataset, lines }) => {
      service.prioritize(dataset, lines);
      return null;
    },
    detail: (params) => details.summary(params),
    detailVerification: (params) => details.verification(params),
    detailCalls: ({ start, end, ...params }) => details.calls(params, start, end),
    detailItems: ({ start, end, ...params }) => details.items(params, start, end),
    raw: async ({ dataset, line }, { transfer }) => {
      const bytes = await service.raw(dataset, line);
      if (bytes === null) return null;
      transfer(bytes.buffer);
      return { bytes };
    },
    search: ({ dataset, text }, { signal, progress }) => service.search(dataset, text, signal, progress),
    highlight: ({ code }) => highlightJson(code),
    servers: () => ({ servers: service.servers() }),
  };
}
