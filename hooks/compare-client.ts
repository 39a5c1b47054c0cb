"use client";
/**
 * One compare worker per /compare page. Hooks reach it through this context; the QueryClient is the
 * app's (app/layout.tsx), so the inspector and the compare page share one cache with distinct keys.
 */
import { createContext, createElement, type ReactNode, useContext, useEffect, useState } from "react";
import { CompareClient } from "@/worker/compare-client";

const CompareClientContext = createContext<CompareClient | null>(null);

function createWorker(): Worker {
  return new Worker(new URL("../worker/compare.worker.ts", import.meta.url), {
    type: "module",
    name: "compare",
  });
}

export function CompareProvider({ children }: { children: ReactNode }) {
  const [client] = useState(() => new CompareClient(createWorker));
  useEffect(() => () => client.terminate(), [client]);
  return createElement(CompareClientContext.Provider, { value: client }, children);
}

export function useCompareClient(): CompareClient {
  const client = useContext(CompareClientContext);
  if (!client) throw new Error("useCompareClient needs a <CompareProvider>");
  return client;
}
