// Without an SMTP relay, messages are files: `<data dir>/outbox/<time>-<id>.eml`, each a whole
// RFC 822 message as a relay would have received it, so nothing is lost and the operator (or the
// demo's reader) can open it in a mail client or list it with `kairan mail outbox`.
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { OutboxMail } from "../../store/queries/mail-outbox.js";
import { composeMessage } from "./compose.js";
import type { MailTransport } from "./transport.js";

/** Files written at once. */
const CONCURRENCY = 8;

/** The outbox folder of a data directory. */
export function outboxDir(dataDir: string): string {
  return join(dataDir, "outbox");
}

/**
 * A message's file name: its creation time (so that a listing sorts by it) and row id. The name
 * is the row's alone, so a message written again after a crash replaces its own file, never adds one.
 */
export function outboxFileName(row: Pick<OutboxMail, "id" | "created_at">): string {
  const stamp = new Date(row.created_at)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${row.id}.eml`;
}

/**
 * Writes each message into `outboxDir(dataDir)`: to a temporary name first, then renamed, so a
 * reader never sees half a message and a killed process leaves at most a temporary file (whose
 * message stays queued and is written again). Like SQLite's default `synchronous=normal`, the
 * file survives a killed process, not a power cut.
 */
export function outboxFolder(dataDir: string, from: string): MailTransport {
  const dir = outboxDir(dataDir);
  let made: Promise<unknown> | undefined;
  return {
    kind: "outbox",
    concurrency: CONCURRENCY,
    secrets: [],
    async deliver(row: OutboxMail, fromName?: string) {
      // The bytes a relay would have received.
      const message = await composeMessage(row, from, fromName);
      const file = join(dir, outboxFileName(row));
      const temp = join(dir, `.${row.id}.${randomBytes(6).toString("hex")}.tmp`);
      try {
        // Reset links and invitations are in these files: the folder and files are the owner's alone.
        await (made ??= mkdir(dir, { recursive: true, mode: 0o700 }));
        await writeFile(temp, message, { mode: 0o600 });
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        made = undefined;
        throw error;
      }
      return file;
    },
    close: () => undefined,
  };
}
