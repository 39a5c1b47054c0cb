/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
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
