import type { Metadata } from "next";
import { connection } from "next/server";
import { Suspense } from "react";
import { LivePage } from "@/features/live/LivePage";

export const metadata: Metadata = {
  title: "Live · Rollout Inspector",
  description:
    "Check a running Gym server's HTTP and MCP doors, replay a rollout through both, verify on the server.",
};

export default async function Live() {
  // Rendered per request so the CSP nonce set in proxy.ts reaches every script tag.
  await connection();
  return (
    <Suspense fallback={<div className="booting">Live</div>}>
      <LivePage />
    </Suspense>
  );
}
