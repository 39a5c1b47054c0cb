import { connection } from "next/server";
import { Suspense } from "react";
import { Inspector } from "@/features/inspector/Inspector";

export default async function Home() {
  // Rendered per request so the CSP nonce set in proxy.ts reaches every script tag.
  await connection();
  return (
    <Suspense fallback={<div className="booting">Rollout Inspector</div>}>
      <Inspector />
    </Suspense>
  );
}
