import {
  ANY_APP_PORT,
  FORWARD_ALLOW_ENV,
  type ForwardConfig,
  parseAllowList,
  VIEW_GUARDED_ENV,
} from "@/lib/live/forward";

/**
 * The two live routes' configuration: the operator's allow-list, and the port `next start`/`next dev` listen
 * on (they set PORT), or any loopback port behind `cli view` (it sets VIEW_GUARDED_ENV: a tunnel's local
 * port is not the one it listens on, and its guard has checked the Host and the token already).
 */
export function forwardConfig(): ForwardConfig {
  const appPort = process.env[VIEW_GUARDED_ENV] === "1" ? ANY_APP_PORT : (process.env.PORT ?? null);
  return { allow: parseAllowList(process.env[FORWARD_ALLOW_ENV]), appPort };
}
