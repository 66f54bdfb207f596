// "Each change": an item's changes within MAIL_TIMING.coalesceMs of its first unmailed one make
// one message per reader who chose it. The request that made a change only logged it; here the
// due changes of an item become a batch, and the batch is mailed a page of readers at a time, each
// page read (and rendered) outside the writing transaction and written with a compare-and-set on
// the batch's cursor, so that a second process never writes the same page.
import { MAIL_TIMING } from "../../domain/mail-schedule.js";
import { type MailLine, itemMail, itemSubject } from "../../mail/notification/item-mail.js";
import type { OutgoingMail } from "../../mail/message.js";
import type { ToldChange } from "../../store/queries/mail-content.js";
import type { MailRecipient, ReadItem } from "../../store/queries/mail-readers.js";
import type { MailBatch, PersonalChange } from "../../store/queries/mail-work.js";
import { queueMail } from "../mail/outbox.js";
import { type NotifyContext, footOf, giveWay, itemLink, itemOutgoing, langOf, replyToOf } from "./compose.js";
import { type SiteLocale, readSiteLocale } from "../settings/site-locale.js";
import { unsubscribeKey } from "./unsubscribe.js";

/** Readers mailed per transaction: short enough that a post waiting behind it hardly notices. */
export const READERS_PER_PAGE = 100;
/** Items opened, and batches read, per pass. */
const ITEMS_PER_PASS = 100;

/** Turns the items whose first waiting change is old enough into batches; returns how many. */
export async function openDueBatches(ctx: NotifyContext, now: number): Promise<number> {
  const due = await ctx.store.read((tx) => tx.mailWork.dueItems(now - MAIL_TIMING.coalesceMs, ITEMS_PER_PASS));
  let opened = 0;
  for (const item of due) {
    const windowEnd = item.firstAt + MAIL_TIMING.coalesceMs;
    // A group's joins and leaves are told by the digest only: a message per join would flood a large group.
    const batch = await ctx.store.transaction((tx) =>
      item.itemKind === "GROUP"
        ? tx.mailWork.settle(item, windowEnd).then(() => undefined)
        : tx.mailWork.openBatch(item, windowEnd, now),
    );
    if (batch !== undefined) opened += 1;
  }
  return opened;
}

/** Mails every open batch to its readers; returns how many messages were queued. */
export async function mailBatches(ctx: NotifyContext, now: number): Promise<number> {
  const batches = await ctx.store.read((tx) => tx.mailWork.batches(ITEMS_PER_PASS));
  if (batches.length === 0) return 0;
  let queued = 0;
  const key = await unsubscribeKey(ctx);
  const site = await readSiteLocale(ctx);
  for (const batch of batches) {
    let cursor: number | undefined = batch.nextUserId;
    while (cursor !== undefined) {
      const started = performance.now();
      const page = await mailPage(ctx, key, site, { ...batch, nextUserId: cursor }, now);
      queued += page.queued;
      cursor = page.next;
      await giveWay(performance.now() - started);
    }
  }
  return queued;
}

/** One page of a batch's readers; `next` is the cursor to go on from, undefined when the batch is done (or taken). */
async function mailPage(
  ctx: NotifyContext,
  key: Buffer,
  site: SiteLocale,
  batch: MailBatch,
  now: number,
): Promise<{ queued: number; next: number | undefined }> {
  const item: ReadItem = { groupId: batch.groupId, itemKind: batch.itemKind, itemId: batch.itemId };
  const read = await ctx.store.read(async (tx) => {
    const changes = await tx.mailContent.batchChanges(batch.id);
    if (changes.length === 0) return { changes, readers: [], personal: [] };
    const first = changes[0]?.at ?? 0;
    return {
      changes,
      readers: await tx.mailReaders.readers(item, "each", batch.nextUserId, READERS_PER_PAGE),
      personal: await tx.mailWork.personalOf(batch.itemKind, batch.itemId, first, batch.windowEnd),
    };
  });
  const last = read.readers.at(-1)?.userId;
  const done = read.readers.length < READERS_PER_PAGE || last === undefined;
  const messages: { userId: number; mail: OutgoingMail }[] = [];
  for (const reader of read.readers) {
    const mail = await messageTo(ctx, key, site, reader, read.changes, read.personal, now);
    if (mail !== undefined) messages.push({ userId: reader.userId, mail });
  }
  let queued = 0;
  const moved = await ctx.store.transaction(async (tx) => {
    const claimed = done
      ? await tx.mailWork.closeBatch(batch.id, batch.nextUserId)
      : await tx.mailWork.advanceBatch(batch.id, batch.nextUserId, last);
    if (!claimed) return false;
    // Access is checked again as the rows are written: someone who left since the read gets nothing.
    const still = await tx.mailReaders.stillReaders(
      item,
      "each",
      messages.map((message) => message.userId),
    );
    for (const message of messages) {
      if (!still.has(message.userId)) continue;
      await queueMail(tx, ctx.config.mail, message.mail, now);
      queued += 1;
    }
    return true;
  });
  return { queued, next: moved && !done ? last : undefined };
}

/**
 * The message to one reader: the batch's changes by others that no personal message told them
 * already (a mention of them, an assignment to them); undefined when none is left.
 */
async function messageTo(
  ctx: NotifyContext,
  key: Buffer,
  site: SiteLocale,
  reader: MailRecipient,
  changes: readonly ToldChange[],
  personal: readonly PersonalChange[],
  now: number,
): Promise<OutgoingMail | undefined> {
  const toldAlready = new Set(personal.filter((row) => row.userId === reader.userId).map((row) => toldKey(row)));
  const told = changes.filter((change) => change.actorId !== reader.userId && !toldAlready.has(toldKey(change)));
  const head = told.at(-1);
  if (head === undefined) return undefined;
  const lang = langOf(site, reader);
  const item = { groupId: head.groupId, groupName: head.groupName, kind: head.itemKind, id: head.itemId };
  const foot = footOf(
    ctx,
    key,
    reader,
    { kind: "group", groupId: head.groupId },
    { kind: "group", groupName: head.groupName },
    now,
  );
  const parts = itemMail({
    lang,
    subject: itemSubject(head.groupName, head.title),
    lines: linesOf(told),
    link: itemLink(ctx, item, told.length === 1 ? head.number : null),
    foot,
  });
  // No transaction is open here: the reply key is read (and kept) on its own.
  return itemOutgoing(ctx, reader, item, parts, foot, await replyToOf(ctx, undefined, reader, item));
}

/** The write a change was part of: a mention of a comment and the comment share it (a mention of a body, the body's write). */
function toldKey(change: { actorId: number | null; at: number; number: number | null }): string {
  return `${change.actorId ?? 0}:${change.at}:${change.number ?? ""}`;
}

/**
 * The lines of changes to one item, oldest first: a comment with its text, the item's text once
 * (after the last change that wrote it: its creation or an edit), the other changes alone.
 */
export function linesOf(changes: readonly ToldChange[]): MailLine[] {
  const lastText = changes.findLastIndex((change) => change.event === "created" || change.event === "edited");
  return changes.map((change, index) => ({
    words: {
      actor: change.actorName,
      event: change.event,
      itemKind: change.itemKind,
      title: change.title,
      groupName: change.groupName,
    },
    text: change.event === "comment" ? change.comment : index === lastText ? change.body : null,
  }));
}
