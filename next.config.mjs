import { readFileSync } from "node:fs";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The data worker keeps computed results per file content, project version and build
  // (worker/results-cache.ts): results computed by another build are never read back.
  env: {
    NEXT_PUBLIC_PROJECT_VERSION: version,
    NEXT_PUBLIC_BUILD_STAMP: process.env.BUILD_STAMP ?? new Date().toISOString(),
  },
  reactStrictMode: true,
  // Only for profiling (bench/profile-rewards.ts): a CPU profile of the workers is read by function name.
  productionBrowserSourceMaps: process.env.SOURCE_MAPS === "1",
  poweredByHeader: false,
  // lib/ is plain TypeScript shared with the CLI and the worker; nothing here needs server-side data.
  // The bundled samples are data, fetched by the worker: opened directly they must never be sniffed into
  // HTML or run anything (proxy.ts's page CSP does not cover public files).
  async headers() {
    return [
      {
        source: "/samples/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "default-src 'none'; sandbox; frame-ancestors 'none'" },
          { key: "X-Content-Type-Options", value: "nosniff" },
        ],
      },
    ];
  },
};

export default nextConfig;
