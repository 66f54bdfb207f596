// Mail that names its reader comes at once, whatever their mode: a mention, a task assigned to
// them, a direct message still unread MAIL_TIMING.chatUnreadMs after it was written. Several such
// changes of one item for one person waiting together make one message.
import { MAIL_TIMING } from "../../domain/mail-schedule.js";
import { itemMail, itemSubject, type MailLine } from "../../mail/notification/item-mail.js";
import { PHRASES } from "../../mail/notification/texts.js";
import type { OutgoingMail } from "../../mail/message.js";
import type { ToldChange } from "../../store/queries/mail-content.js";
import type { MailRecipient } from "../../store/queries/mail-readers.js";
import type { PersonalChange } from "../../store/queries/mail-work.js";
import type { Tx } from "../../store/store.js";
import { queueMail } from "../mail/outbox.js";
import { type NotifyContext, footOf, giveWay, itemLink, itemOutgoing, langOf, replyToOf } from "./compose.js";
import { linesOf } from "./each-change.js";
import { type SiteLocale, readSiteLocale } from "../settings/site-locale.js";
import { unsubscribeKey } from "./unsubscribe.js";

/** Waiting personal changes read per pass. */
const CHANGES_PER_PASS = 500;
/** The unread direct messages one message quotes at most (the newest). */
const CHAT_MESSAGES_QUOTED = 10;

/** Mails the due personal changes; returns how many messages were queued. */
export async function mailPersonal(ctx: NotifyContext, now: number): Promise<number> {
  const due = await ctx.store.read((tx) =>
    tx.mailWork.duePersonal(now, now - MAIL_TIMING.chatUnreadMs, CHANGES_PER_PASS),
  );
  if (due.length === 0) return 0;
  const key = await unsubscribeKey(ctx);
  const site = await readSiteLocale(ctx);
  let queued = 0;
  for (const changes of groupedByReaderAndItem(due)) {
    const started = performance.now();
    const sent = await ctx.store.transaction(async (tx) => {
      // Taken by this transaction, or by another process first (then nothing is written here).
      if ((await tx.mailWork.markDone(changes.map((change) => change.id))) !== changes.length) return false;
      const mail = await messageOf(ctx, tx, key, site, changes, now);
      if (mail === undefined) return false;
      await queueMail(tx, ctx.config.mail, mail, now);
      return true;
    });
    if (sent) queued += 1;
    await giveWay(performance.now() - started);
  }
  return queued;
}

function groupedByReaderAndItem(changes: readonly PersonalChange[]): PersonalChange[][] {
  const groups = new Map<string, PersonalChange[]>();
  for (const change of changes) {
    const key = `${change.userId}:${change.itemKind}:${change.itemId}`;
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return [...groups.values()];
}

/**
 * The message for one reader about one item, read in the writing transaction (so access is the
 * one of the moment the row is made); undefined when they no longer take it or may not read it.
 */
async function messageOf(
  ctx: NotifyContext,
  tx: Tx,
  key: Buffer,
  site: SiteLocale,
  changes: readonly PersonalChange[],
  now: number,
): Promise<OutgoingMail | undefined> {
  const first = changes[0];
  if (first === undefined) return undefined;
  if (first.itemKind === "CHAT") return directMessage(ctx, tx, key, site, first, now);
  const item = { groupId: first.groupId ?? 0, itemKind: first.itemKind, itemId: first.itemId };
  const reader = await readerOf(tx, item, first.userId);
  if (reader === undefined) return undefined;
  const told: ToldChange[] = [];
  for (const change of changes) {
    const found = await tx.mailContent.change(change.id);
    // A comment deleted since it named them tells nothing any more.
    if (found !== undefined && !(found.number !== null && found.comment === null)) told.push(found);
  }
  const head = told.at(-1);
  if (head === undefined) return undefined;
  const mailed = { groupId: head.groupId, groupName: head.groupName, kind: head.itemKind, id: head.itemId };
  const foot = footOf(ctx, key, reader, { kind: "personal" }, { kind: "personal" }, now);
  const lines = linesOf(told).map((line, index) => ({ ...line, text: personalText(told[index]) }));
  const parts = itemMail({
    lang: langOf(site, reader),
    subject: itemSubject(head.groupName, head.title),
    lines,
    link: itemLink(ctx, mailed, head.number),
    foot,
  });
  return itemOutgoing(ctx, reader, mailed, parts, foot, await replyToOf(ctx, tx, reader, mailed));
}

/** What a personal change quotes: the comment or body that named the reader; an assigned task's text. */
function personalText(change: { comment: string | null; body: string; number: number | null } | undefined) {
  if (change === undefined) return null;
  return change.number === null ? change.body : change.comment;
}

async function readerOf(
  tx: Tx,
  item: { groupId: number; itemKind: PersonalChange["itemKind"]; itemId: number },
  userId: number,
): Promise<MailRecipient | undefined> {
  const readers = await tx.mailReaders.stillReaders(item, "personal", [userId]);
  if (!readers.has(userId)) return undefined;
  return tx.mailReaders.personalRecipient(userId);
}

/** Unread direct messages of one room, if the reader still has them unread and may use the room. */
async function directMessage(
  ctx: NotifyContext,
  tx: Tx,
  key: Buffer,
  site: SiteLocale,
  change: PersonalChange,
  now: number,
): Promise<OutgoingMail | undefined> {
  const room = await tx.chat.room(change.itemId, change.userId);
  if (room === undefined || room.type !== "DIRECT" || room.muted || room.unconfirmed === 0) return undefined;
  const reader = await tx.mailReaders.personalRecipient(change.userId);
  if (reader === undefined) return undefined;
  const unread = await tx.chat.messages(room.id, {
    offset: 0,
    limit: Math.min(room.unconfirmed, CHAT_MESSAGES_QUOTED),
  });
  const messages = unread.filter((message) => message.authorId !== reader.userId).reverse();
  const author = messages.at(-1);
  if (author === undefined) return undefined;
  const lang = langOf(site, reader);
  const lines: MailLine[] = messages.map((message) => ({
    words: { actor: message.authorName, event: "chat", itemKind: "CHAT", title: "", groupName: "" },
    text: message.body,
  }));
  const item = { groupId: null, groupName: null, kind: "CHAT" as const, id: room.id };
  const foot = footOf(ctx, key, reader, { kind: "personal" }, { kind: "personal" }, now);
  const parts = itemMail({
    lang,
    subject: PHRASES[lang].directSubject(author.authorName),
    lines,
    link: itemLink(ctx, item),
    foot,
  });
  return itemOutgoing(ctx, reader, item, parts, foot, await replyToOf(ctx, tx, reader, item));
}
