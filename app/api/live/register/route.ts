/** The Live page registers the server the user entered and gets the token the forward route requires. */
import { forwardConfig } from "@/app/api/live/config";
import { registerTarget } from "@/lib/live/forward";

export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return registerTarget(request, forwardConfig());
}
