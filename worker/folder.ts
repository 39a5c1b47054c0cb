/**
 * The browser's reading of an opened folder's files for their roles: lib/folder says how much of each file
 * to read (headToRead) and decides the role; this reads those bytes from the File (the first
 * ROLE_SNIFF_BYTES of JSONL, decompressed, or the whole YAML/JSON text), as cli/folder.ts does from disk.
 */
import { type FolderFile, headToRead, MAX_WHOLE_FILE_BYTES, ROLE_SNIFF_BYTES } from "../lib/folder";
import { gunzipIfGzip, streamChunks } from "../lib/jsonl";
import type { FolderEntry } from "./protocol";

const decoder = new TextDecoder();

async function readStart(file: Blob): Promise<{ text: string; complete: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = true;
  try {
    for await (const chunk of gunzipIfGzip(streamChunks(file.stream()))) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= ROLE_SNIFF_BYTES) {
        complete = false;
        break;
      }
    }
  } catch (error) {
    // A damaged gzip member still shows its first lines; reading the file reports the damage.
    if (chunks.length === 0) throw error;
  }
  const bytes = new Uint8Array(Math.min(size, ROLE_SNIFF_BYTES));
  let at = 0;
  for (const chunk of chunks) {
    const take = Math.min(chunk.length, bytes.length - at);
    bytes.set(chunk.subarray(0, take), at);
    at += take;
    if (at >= bytes.length) break;
  }
  return { text: decoder.decode(bytes), complete };
}

/** One folder file as lib/folder reads it for its role; null head when it cannot be read as text. */
export async function folderHead({ path, file }: FolderEntry): Promise<FolderFile> {
  const how = headToRead(path);
  try {
    if (how === "start") {
      const { text, complete } = await readStart(file);
      return { path, head: text, complete };
    }
    if (how === "whole") {
      if (file.size > MAX_WHOLE_FILE_BYTES) return { path, head: null, complete: false };
      return { path, head: await file.text(), complete: true };
    }
    return { path, head: "", complete: false };
  } catch {
    return { path, head: null, complete: false };
  }
}
