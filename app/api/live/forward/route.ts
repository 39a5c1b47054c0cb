/**
 * The Live page's only way to a Gym server (lib/live/forward.ts): requests addressed to this app by its own
 * pages only, to the server registered for the page's token only, loopback unless LIVE_FORWARD_ALLOW widens
 * the list, GET/POST/DELETE, no redirects, capped bodies, a deadline.
 */
import { forwardConfig } from "@/app/api/live/config";
import { forwardRequest } from "@/lib/live/forward";

export const dynamic = "force-dynamic";

function handle(request: Request): Promise<Response> {
  return forwardRequest(request, forwardConfig());
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
