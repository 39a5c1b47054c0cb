/**
 * The inspector's requests (./protocol.ts), answered by the data service: a rollout's detail a page at a time
 * (./detail-pages.ts) and its raw line.
 */

import type { Handlers } from "@/worker/rpc";
import type { DataService } from "@/worker/service";
import { DetailPages } from "./detail-pages";
import type { InspectorRequests } from "./protocol";

export function inspectorHandlers(service: DataService): Handlers<InspectorRequests> {
  const details = new DetailPages(
    ({ dataset, line, server, harness }) => service.detail(dataset, line, server, harness),
    ({ dataset, line, server, harness }) => service.detailVerification(dataset, line, server, harness),
  );
  return {
    detail: (params) => details.summary(params),
    detailVerification: (params) => details.verification(params),
    detailCalls: ({ start, end, ...params }) => details.calls(params, start, end),
    detailItems: ({ start, end, ...params }) => details.items(params, start, end),
    detailBadges: ({ start, end, ...params }) => details.badges(params, start, end),
    detailDecisive: ({ start, end, ...params }) => details.decisive(params, start, end),
    gymMetrics: ({ dataset }) => service.gymMetrics(dataset),
    raw: async ({ dataset, line }, { transfer }) => {
      const bytes = await service.raw(dataset, line);
      if (bytes === null) return null;
      transfer(bytes.buffer);
      return { bytes };
    },
  };
}
