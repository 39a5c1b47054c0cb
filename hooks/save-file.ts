"use client";
/** Saving bytes the worker built as a download: the page only hands them to the browser. */

/**
 * How long an object URL lives after the click that starts its download: long enough for the browser to
 * start reading it (revoked at once, a large Blob's download can fail), short enough not to hold it.
 */
const OBJECT_URL_LIFETIME_MS = 60_000;

/** Saves `data` (text or the worker's Blob) as a file called `name`, through a temporary object URL. */
export function saveFile(data: Blob | string, name: string, type = "application/octet-stream"): void {
  const url = URL.createObjectURL(typeof data === "string" ? new Blob([data], { type }) : data);
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = name;
  anchor.rel = "noopener";
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
}
