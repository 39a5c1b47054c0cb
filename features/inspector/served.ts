"use client";
/**
 * A folder served by `cli view` (cli/view/): the page was opened at `/?served=1` (the token already swapped
 * for a cookie), so it reads the folder's listing and opens its rollouts and task-row files from the server,
 * which the worker then follows as they grow. Kept for the tab (sessionStorage): a reload reads the folder
 * again instead of the tab's kept copies.
 */
import { z } from "zod";
import type { Source } from "@/worker/protocol";

/** The server's routes (cli/view/server.ts). */
export const SERVED_FILES_ROUTE = "/view-api/files";
export const SERVED_FILE_ROUTE = "/view-api/file";
const SERVED_PARAM = "served";
const SERVED_KEY = "rollout-inspector:served";

const ListingSchema = z.object({
  name: z.string(),
  files: z.array(z.object({ path: z.string(), bytes: z.number(), role: z.string(), reason: z.string() })),
});
export type ServedListing = z.infer<typeof ListingSchema>;

/** True when this tab shows a folder `cli view` serves. */
export function servedFolder(): boolean {
  if (typeof window === "undefined") return false;
  if (new URLSearchParams(window.location.search).get(SERVED_PARAM) === "1") {
    window.sessionStorage.setItem(SERVED_KEY, "1");
    return true;
  }
  return window.sessionStorage.getItem(SERVED_KEY) === "1";
}

/** The roles whose files the page opens (the others, configs and metrics, are listed by the server only). */
const OPENED_ROLES = new Set(["rollouts", "inputs"]);

/** The served folder's files to open, read from the server's listing. */
export async function servedSources(): Promise<{ listing: ServedListing; sources: Source[] }> {
  const response = await fetch(SERVED_FILES_ROUTE, { cache: "no-store" });
  if (!response.ok) throw new Error(`the served folder's listing: HTTP ${response.status}`);
  const listing = ListingSchema.parse(await response.json());
  const sources: Source[] = listing.files
    .filter((file) => OPENED_ROLES.has(file.role))
    .map((file) => ({
      kind: "remote",
      url: `${SERVED_FILE_ROUTE}?path=${encodeURIComponent(file.path)}`,
      name: file.path,
    }));
  return { listing, sources };
}
