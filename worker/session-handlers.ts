/**
 * The session's requests (./protocol.ts SessionRequests), answered by the data service. Each feature answers
 * its own (features/<name>/handlers.ts).
 */
import { highlightJson } from "./highlight";
import type { SessionRequests } from "./protocol";
import type { Handlers } from "./rpc";
import { CHANGES_PAGE_ROWS, type DataService } from "./service";
import { progressAtMostEvery, SESSION_EVENT_MS } from "./workspace";

/** A load's progress as the page gets it: at most once per session event's interval. */
const paced = <T>(progress: (value: T) => void) => progressAtMostEvery(SESSION_EVENT_MS, progress);

export function sessionHandlers(service: DataService): Handlers<SessionRequests> {
  return {
    load: ({ sources, fallbackServer }, { signal, progress }) =>
      service.load(sources, fallbackServer ?? null, signal, paced(progress)),
    loadFolder: ({ name, entries, roles, root }, { signal, progress }) =>
      service.loadFolder(name, entries, signal, paced(progress), null, roles, root ?? null),
    setRole: ({ path, role }, { signal, progress }) => service.setRole(path, role, signal, paced(progress)),
    fileOf: ({ dataset }) => service.fileOf(dataset),
    lineOptions: ({ dataset, line }) => service.lineOptions(dataset, line),
    restore: ({ ids }, { signal, progress }) => service.restore(ids, signal, paced(progress)),
    recent: () => service.recent(),
    session: () => service.session(),
    reanalyze: ({ dataset, server, harness }) => service.reanalyze(dataset, server, harness),
    changes: ({ dataset, since, after }) => service.changes(dataset, since, after, CHANGES_PAGE_ROWS),
    lineErrors: ({ dataset, start, end }) => service.lineErrors(dataset, start, end),
    prioritize: ({ dataset, lines }) => {
      service.prioritize(dataset, lines);
      return null;
    },
    search: ({ dataset, text }, { signal, progress }) => service.search(dataset, text, signal, progress),
    highlight: ({ code }) => highlightJson(code),
    servers: () => ({ servers: service.servers() }),
  };
}
