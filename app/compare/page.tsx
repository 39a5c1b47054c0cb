import type { Metadata } from "next";
import { connection } from "next/server";
import { Suspense } from "react";
import { ComparePage } from "@/features/compare/ComparePage";

export const metadata: Metadata = {
  title: "Compare · Rollout Inspector",
  description:
    "Compare transports and harnesses side by side, run the harness what-if, repair legacy artifacts.",
};

export default async function Compare() {
  // Rendered per request so the CSP nonce set in proxy.ts reaches every script tag.
  await connection();
  return (
    <Suspense fallback={<div className="booting">Rollout Inspector · Compare</div>}>
      <ComparePage />
    </Suspense>
  );
}
