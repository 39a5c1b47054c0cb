import { FORWARD_ALLOW_ENV, type ForwardConfig, parseAllowList } from "@/lib/live/forward";

/** The two live routes' configuration: the operator's allow-list, and the port `next start`/`next dev` listen on (they set PORT). */
export function forwardConfig(): ForwardConfig {
  return { allow: parseAllowList(process.env[FORWARD_ALLOW_ENV]), appPort: process.env.PORT ?? null };
}
