// Notification mail in tests: writes through the API as clients make them, the mailer's passes
// with the test clock, and the outbox read behind the server's back.
import assert from "node:assert/strict";
import type { Kysely } from "kysely";
import { DEFAULT_MAIL_SETTINGS, type MailSettings } from "../../src/domain/mail-settings.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import type { Database } from "../../src/store/schema.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { CLIENT_NS, atomText, entriesOf, request } from "./http.js";
import type { TestServer } from "./server.js";

/** One outbox row, its header fields parsed. */
export interface QueuedMail {
  readonly id: number;
  readonly kind: string;
  readonly to: string;
  readonly userId: number | null;
  readonly messageId: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string | null;
  readonly headers: Readonly<Record<string, string>>;
}

/** Reads the outbox through a second connection to the server's database. */
export interface OutboxReader {
  /** Every message, in the order written. */
  all(): Promise<QueuedMail[]>;
  /** The messages written since the last call. */
  fresh(): Promise<QueuedMail[]>;
  close(): Promise<void>;
}

/** Opens an outbox reader over `server`'s database. */
export function openOutbox(server: TestServer): OutboxReader {
  const config = server.storeConfig;
  const db = (config.kind === "sqlite"
    ? openSqliteDatabase(config.file)
    : openPostgresDatabase({ url: config.url, poolSize: 2 })) as unknown as Kysely<Database>;
  let seen = 0;
  const all = async () => {
    const rows = await db.selectFrom("mail_outbox").selectAll().orderBy("id").execute();
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      to: row.to_address,
      userId: row.user_id,
      messageId: row.message_id,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      headers: JSON.parse(row.headers) as Record<string, string>,
    }));
  };
  return {
    all,
    async fresh() {
      const rows = (await all()).filter((row) => row.id > seen);
      seen = Math.max(seen, ...rows.map((row) => row.id));
      return rows;
    },
    close: () => db.destroy(),
  };
}

/** Sets a person's mail settings (the defaults where not given). */
export async function setMail(server: TestServer, userId: number, settings: Partial<MailSettings>): Promise<void> {
  await server.store.transaction((tx) =>
    tx.mailSettings.save(userId, { ...DEFAULT_MAIL_SETTINGS, ...settings }, server.clock.now()),
  );
}

/** Runs one pass of the server's notification mailer at the test clock's time. */
export function runMailer(server: TestServer) {
  return server.app.notificationMailer.runNow();
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Creates a topic through the API; returns its full id (`GROUP,1:g,BOARD,1:n`) and number. */
export async function postTopic(
  server: TestServer,
  token: string,
  groupId: number,
  title: string,
  body = "",
): Promise<{ id: string; topicId: number }> {
  const answer = await request(`${server.url}/api/board/V2`, {
    token,
    body: `<feed ${CLIENT_NS}><entry><cbl:group id="1:${groupId}"/><title>${escapeXml(title)}</title><summary type="text">${escapeXml(body)}</summary></entry></feed>`,
  });
  assert.equal(answer.status, 200, answer.text);
  const id = atomText(entriesOf(answer.xml)[0]!, "id") ?? "";
  return { id, topicId: Number(id.split(":").at(-1)) };
}

/** Adds a comment to an item (its full id) through the API. */
export async function postComment(server: TestServer, token: string, itemId: string, text: string): Promise<void> {
  const answer = await request(`${server.url}/api/comment/V2`, {
    token,
    body: `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${itemId}</id><entry><summary type="text">${escapeXml(text)}</summary></entry></feed>`,
  });
  assert.equal(answer.status, 200, answer.text);
}

/** Minutes in milliseconds, for moving the test clock. */
export const minutes = (n: number): number => n * 60 * 1000;
