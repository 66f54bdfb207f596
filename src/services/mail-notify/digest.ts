// The daily digest, at the hour each person chose on their own clock. People are gathered by
// (time zone, hour): each such slot has a row that records the latest moment it came due and how
// far its recipients got, so a restart goes on where it stopped and two processes never send the
// same page. A digest tells the changes of the local day before its moment, grouped by group.
import { MAIL_TIMING, latestDigestSlot, previousDigestSlot } from "../../domain/mail-schedule.js";
import { type DigestGroup, digestMail } from "../../mail/notification/digest-mail.js";
import type { OutgoingMail } from "../../mail/message.js";
import type { ToldChange } from "../../store/queries/mail-content.js";
import type { MailRecipient } from "../../store/queries/mail-readers.js";
import type { DigestSlot } from "../../store/queries/mail-work.js";
import { queueMail } from "../mail/outbox.js";
import { type NotifyContext, digestOutgoing, footOf, giveWay, itemLink, langOf, zoneOf } from "./compose.js";
import { linesOf } from "./each-change.js";
import { type SiteLocale, readSiteLocale } from "../settings/site-locale.js";
import { unsubscribeKey } from "./unsubscribe.js";

/** People per transaction. */
const READERS_PER_PAGE = 50;
/** The changes one digest tells at most (the newest); more are summed up in a line. */
const CHANGES_PER_DIGEST = 100;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/** Sends the digests that are due; returns how many were queued. */
export async function mailDigests(ctx: NotifyContext, now: number): Promise<number> {
  const { zones, slots } = await ctx.store.read(async (tx) => ({
    zones: await tx.mailReaders.zones(),
    slots: await tx.mailWork.slots(),
  }));
  const known = new Map(slots.map((slot) => [`${slot.zone}\n${slot.hour}`, slot]));
  const site = await readSiteLocale(ctx);
  // Made when a digest hour comes, not by every pass.
  let key: Buffer | undefined;
  let queued = 0;
  for (const zone of zones) {
    for (const hour of HOURS) {
      const slot = await currentSlot(ctx, site, known.get(`${zone}\n${hour}`), zone, hour, now);
      if (slot === undefined || slot.done) continue;
      key ??= await unsubscribeKey(ctx);
      let cursor: number | undefined = slot.nextUserId;
      while (cursor !== undefined) {
        const started = performance.now();
        const page = await mailPage(ctx, key, site, { ...slot, nextUserId: cursor }, now);
        queued += page.queued;
        cursor = page.next;
        await giveWay(performance.now() - started);
      }
    }
  }
  return queued;
}

/**
 * The slot of (zone, hour) as it stands now: a moment newer than the row's starts it afresh. A
 * moment found more than MAIL_TIMING.digestLateMs after it came (the server was down) is recorded
 * as done rather than sent late. Undefined when another process moved it first.
 */
async function currentSlot(
  ctx: NotifyContext,
  site: SiteLocale,
  row: DigestSlot | undefined,
  zone: string,
  hour: number,
  now: number,
): Promise<DigestSlot | undefined> {
  // People who chose no zone ("") live on the site's.
  const slotAt = latestDigestSlot(now, zone === "" ? site.timeZone : zone, hour);
  if (row !== undefined && row.slotAt >= slotAt) return row;
  // A slot never seen before (a first start, a new zone) begins with the next one: the first
  // digests of a new site (the demo's content) come a day later, not at once.
  const late = row === undefined || now - slotAt > MAIL_TIMING.digestLateMs;
  const fresh = { zone, hour, slotAt, nextUserId: 0, done: late };
  const started = await ctx.store.transaction((tx) => tx.mailWork.startSlot(fresh, row?.slotAt));
  return started ? fresh : undefined;
}

/** One page of a slot's people; `next` is the cursor to go on from, undefined when the slot is done (or taken). */
async function mailPage(
  ctx: NotifyContext,
  key: Buffer,
  site: SiteLocale,
  slot: DigestSlot,
  now: number,
): Promise<{ queued: number; next: number | undefined }> {
  const readers = await ctx.store.read((tx) =>
    tx.mailReaders.digestReaders(slot.zone, slot.hour, slot.nextUserId, READERS_PER_PAGE),
  );
  const last = readers.at(-1)?.userId;
  const done = readers.length < READERS_PER_PAGE || last === undefined;
  let queued = 0;
  const moved = await ctx.store.transaction(async (tx) => {
    if (!(await tx.mailWork.advanceSlot(slot, slot.nextUserId, last ?? slot.nextUserId, done))) return false;
    // Read in the writing transaction: a digest tells only what its reader may read as it is made.
    for (const reader of readers) {
      const zone = zoneOf(site, reader);
      const from = previousDigestSlot(slot.slotAt, zone);
      const changes = await tx.mailContent.digestChanges(reader.userId, from, slot.slotAt, CHANGES_PER_DIGEST + 1);
      const mail = digestTo(ctx, key, site, reader, changes, slot.slotAt, now);
      if (mail === undefined) continue;
      await queueMail(tx, ctx.config.mail, mail, now);
      queued += 1;
    }
    return true;
  });
  return { queued, next: moved && !done ? last : undefined };
}

/** The digest of `changes` (the newest CHANGES_PER_DIGEST of them) for one reader; undefined when there are none. */
function digestTo(
  ctx: NotifyContext,
  key: Buffer,
  site: SiteLocale,
  reader: MailRecipient,
  fetched: readonly ToldChange[],
  slotAt: number,
  now: number,
): OutgoingMail | undefined {
  if (fetched.length === 0) return undefined;
  const more = fetched.length > CHANGES_PER_DIGEST;
  const changes = more ? fetched.slice(fetched.length - CHANGES_PER_DIGEST) : fetched;
  const lang = langOf(site, reader);
  const foot = footOf(ctx, key, reader, { kind: "digest" }, { kind: "digest" }, now);
  const parts = digestMail({
    lang,
    dayLabel: new Intl.DateTimeFormat(lang === "ja" ? "ja-JP" : "en-US", {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: zoneOf(site, reader),
    }).format(new Date(slotAt)),
    groups: groupsOf(ctx, changes),
    count: changes.length,
    more,
    foot,
  });
  return digestOutgoing(reader, parts, foot);
}

/** The changes by group (by name), then by item (in the order of their first change). */
function groupsOf(ctx: NotifyContext, changes: readonly ToldChange[]): DigestGroup[] {
  const groups = new Map<number, { name: string; items: Map<string, ToldChange[]> }>();
  for (const change of changes) {
    const group = groups.get(change.groupId) ?? { name: change.groupName, items: new Map<string, ToldChange[]>() };
    groups.set(change.groupId, group);
    const key = `${change.itemKind}:${change.itemId}`;
    group.items.set(key, [...(group.items.get(key) ?? []), change]);
  }
  return [...groups.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((group) => ({
      name: group.name,
      items: [...group.items.values()].map((told) => {
        const head = told[0] as ToldChange;
        const item = { groupId: head.groupId, groupName: head.groupName, kind: head.itemKind, id: head.itemId };
        return { title: head.title, link: itemLink(ctx, item), lines: linesOf(told) };
      }),
    }));
}
