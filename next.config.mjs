/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // lib/ is plain TypeScript shared with the CLI and the worker; nothing here needs server-side data.
};

export default nextConfig;
