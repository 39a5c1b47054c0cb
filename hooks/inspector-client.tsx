"use client";
/**
 * One worker client and one QueryClient per page. Every hook reaches the worker through this context.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { InspectorClient } from "@/worker/client";

const ClientContext = createContext<InspectorClient | null>(null);

function createWorker(): Worker {
  return new Worker(new URL("../worker/inspector.worker.ts", import.meta.url), {
    type: "module",
    name: "inspector",
  });
}

export function InspectorProvider({ children }: { children: ReactNode }) {
  const [client] = useState(() => new InspectorClient(createWorker));
  const [queryClient] = useState(
    () =>
      new QueryClient({
        // The worker is the source of truth and never changes behind our back: no refetching.
        defaultOptions: {
          queries: { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false, retry: false },
        },
      }),
  );
  useEffect(() => () => client.terminate(), [client]);
  return (
    <ClientContext.Provider value={client}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ClientContext.Provider>
  );
}

export function useInspectorClient(): InspectorClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error("useInspectorClient needs an <InspectorProvider>");
  return client;
}
