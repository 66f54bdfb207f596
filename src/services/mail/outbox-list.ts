// `kairan mail outbox`: the messages of the outbox folder (outbox-folder.ts), read from the files
// themselves: what is there is what was written, whichever process wrote it.
import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
// mailparser is loaded when the outbox is listed (docs/architecture.md "Libraries of one feature load
// when first used").
import type { AddressObject } from "mailparser";
import { outboxDir } from "./outbox-folder.js";

/** One message of the folder. */
export interface OutboxEntry {
  /** The recipients' addresses (one for Kairan's messages). */
  readonly to: readonly string[];
  readonly subject: string;
  /** The message's Date, ISO 8601. */
  readonly time: string;
  readonly messageId: string;
  /** The `.eml` file's path. */
  readonly file: string;
}

/** A message's header ends within this many bytes (Kairan's are under 2 KB). */
const HEADER_BYTES = 16 * 1024;

/**
 * The messages in `dataDir`'s outbox folder, oldest first; with `to`, only those to that address
 * (compared without case). An absent folder is an empty outbox.
 */
export async function listOutbox(dataDir: string, to?: string): Promise<OutboxEntry[]> {
  const dir = outboxDir(dataDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const wanted = to?.toLowerCase();
  const entries: OutboxEntry[] = [];
  // Oldest first: the names start with the creation time (outboxFileName).
  for (const name of names.filter((file) => file.endsWith(".eml")).sort()) {
    const entry = await readEntry(join(dir, name));
    if (wanted === undefined || entry.to.some((address) => address.toLowerCase() === wanted)) entries.push(entry);
  }
  return entries;
}

/** The header fields of one file (its body is not read). */
async function readEntry(file: string): Promise<OutboxEntry> {
  const handle = await open(file, "r");
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const end = head.indexOf("\r\n\r\n");
  const { simpleParser } = await import("mailparser");
  const parsed = await simpleParser(end < 0 ? head : head.subarray(0, end + 4), {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
  });
  return {
    to: addresses(parsed.to),
    subject: parsed.subject ?? "",
    time: (parsed.date ?? new Date(0)).toISOString(),
    messageId: parsed.messageId ?? "",
    file,
  };
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((object) => object.value.map((value) => value.address ?? "")).filter(Boolean);
}
