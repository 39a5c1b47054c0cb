"use client";
/**
 * One data worker (with its verify pool) and one QueryClient for the whole app: the provider sits in the
 * root layout, so the inspector and /compare share the worker, its file store and the query cache across
 * client-side navigation. The worker's session events land in the cache under SESSION_KEY.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { startBeats } from "@/worker/main-first";
import { type PoolPortMessage, type PoolPortsMessage, poolSize } from "@/worker/pool";
import type { DataEvent, DataRequests, SessionSummary } from "@/worker/protocol";
import { RpcClient } from "@/worker/rpc";

export type DataClient = RpcClient<DataRequests, DataEvent>;

export const SESSION_KEY = ["session"] as const;

const ClientContext = createContext<DataClient | null>(null);

/** The data worker, and the pool workers it computes on, connected by one MessageChannel each. */
function createWorkers(): Worker {
  const data = new Worker(new URL("../worker/data.worker.ts", import.meta.url), {
    type: "module",
    name: "data",
  });
  const pool: Worker[] = [];
  const ports: MessagePort[] = [];
  for (let i = 0; i < poolSize(navigator.hardwareConcurrency); i++) {
    const member = new Worker(new URL("../worker/pool.worker.ts", import.meta.url), {
      type: "module",
      name: `pool-${i}`,
    });
    const channel = new MessageChannel();
    member.postMessage({ type: "port", port: channel.port1 } satisfies PoolPortMessage, [channel.port1]);
    ports.push(channel.port2);
    pool.push(member);
  }
  // Before any request, so the worker has its pool when the first file arrives.
  data.postMessage({ type: "pool", ports } satisfies PoolPortsMessage, ports);
  // The pool gives way to this thread's long tasks (worker/main-first.ts).
  const stopBeats = startBeats(pool, document);
  const terminate = data.terminate.bind(data);
  data.terminate = () => {
    stopBeats();
    for (const member of pool) member.terminate();
    terminate();
  };
  return data;
}

export function DataProvider({ children }: { children: ReactNode }) {
  const [client] = useState<DataClient>(() => new RpcClient<DataRequests, DataEvent>(createWorkers));
  const [queryClient] = useState(
    () =>
      new QueryClient({
        // The worker is the source of truth; keys carry dataset revisions, so nothing needs refetching.
        defaultOptions: {
          queries: { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false, retry: false },
        },
      }),
  );
  useEffect(
    () =>
      client.onEvent((event) => {
        if (event.kind === "session")
          queryClient.setQueryData<SessionSummary | null>(SESSION_KEY, event.session);
      }),
    [client, queryClient],
  );
  useEffect(() => () => client.terminate(), [client]);
  return (
    <ClientContext.Provider value={client}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ClientContext.Provider>
  );
}

export function useDataClient(): DataClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error("useDataClient needs a <DataProvider>");
  return client;
}
