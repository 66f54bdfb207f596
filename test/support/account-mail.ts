// The account messages the services wrote, read from the outbox table behind the server's back
// (a second connection, as snapshot.ts reads), and the links in them.
import type { Kysely } from "kysely";
import type { StoreConfig } from "../../src/config/config.js";
import type { Database, MailOutboxTable } from "../../src/store/schema.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";

/** One outbox row as stored. */
export type OutboxRow = Omit<MailOutboxTable, "id" | "headers" | "status" | "attempts"> & {
  id: number;
  headers: string;
  status: string;
};

/** Reads a test server's outbox. */
export interface OutboxReader {
  /** Every message, oldest first; of one kind when given. */
  rows(kind?: string): Promise<OutboxRow[]>;
  /** The messages to one address, oldest first. */
  to(address: string, kind?: string): Promise<OutboxRow[]>;
  close(): Promise<void>;
}

/** Opens a second connection to the server's database for its outbox. */
export function openOutbox(server: { readonly storeConfig: StoreConfig }): OutboxReader {
  const config = server.storeConfig;
  const db = (config.kind === "sqlite"
    ? openSqliteDatabase(config.file)
    : openPostgresDatabase({ url: config.url, poolSize: 2 })) as unknown as Kysely<Database>;
  const rows = async (kind?: string, to?: string) => {
    let query = db.selectFrom("mail_outbox").selectAll().orderBy("id");
    if (kind !== undefined) query = query.where("kind", "=", kind);
    if (to !== undefined) query = query.where("to_address", "=", to);
    return (await query.execute()) as OutboxRow[];
  };
  return { rows: (kind) => rows(kind), to: (address, kind) => rows(kind, address), close: () => db.destroy() };
}

/** The path of the first link to `base` in a message's text (`/join/1:5/SECRET`), relative to the site. */
export function linkPath(text: string, base: string): string {
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`${escaped}(/\\S+)`).exec(text);
  if (!match?.[1]) throw new Error(`no link to ${base} in:\n${text}`);
  return match[1];
}
