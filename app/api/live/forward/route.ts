/**
 * The Live page's only way to a Gym server (lib/live/forward.ts): loopback targets only unless
 * LIVE_FORWARD_ALLOW widens the list, GET/POST/DELETE, no redirects, capped bodies, a deadline.
 */
import { FORWARD_ALLOW_ENV, forwardRequest, parseAllowList } from "@/lib/live/forward";

export const dynamic = "force-dynamic";

function handle(request: Request): Promise<Response> {
  return forwardRequest(request, { allow: parseAllowList(process.env[FORWARD_ALLOW_ENV]) });
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
