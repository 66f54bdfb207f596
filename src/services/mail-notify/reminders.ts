// Mail reminders of group events: each due reminder is moved on to its next occurrence with a
// compare-and-set (so two processes never send it twice) and, in the same transaction, mailed to
// its person if they still read the event and take personal mail.
import { nextReminderAt } from "../../domain/event-reminder.js";
import { itemMail, itemSubject } from "../../mail/notification/item-mail.js";
import { reminderWhen } from "../../mail/notification/reminder-words.js";
import type { EventReminder } from "../../store/queries/event-reminders.js";
import type { Tx } from "../../store/store.js";
import { queueMail } from "../mail/outbox.js";
import { type SiteLocale, readSiteLocale } from "../settings/site-locale.js";
import { type NotifyContext, footOf, giveWay, itemLink, itemOutgoing, langOf, replyToOf, zoneOf } from "./compose.js";
import { unsubscribeKey } from "./unsubscribe.js";

/** Due reminders read per pass. */
const REMINDERS_PER_PASS = 200;
/** A reminder noticed this long after it was due (the server was down) is skipped, not sent late. */
const LATE_MS = 60 * 60 * 1000;

/** Mails the due reminders; returns how many messages were queued. */
export async function mailReminders(ctx: NotifyContext, now: number): Promise<number> {
  const due = await ctx.store.read((tx) => tx.eventReminders.due(now, REMINDERS_PER_PASS));
  if (due.length === 0) return 0;
  const key = await unsubscribeKey(ctx);
  const site = await readSiteLocale(ctx);
  let queued = 0;
  for (const reminder of due) {
    const started = performance.now();
    const sent = await ctx.store.transaction((tx) => remind(ctx, tx, key, site, reminder, now));
    if (sent) queued += 1;
    await giveWay(performance.now() - started);
  }
  return queued;
}

async function remind(
  ctx: NotifyContext,
  tx: Tx,
  key: Buffer,
  site: SiteLocale,
  reminder: EventReminder,
  now: number,
): Promise<boolean> {
  const event = await tx.events.findById(reminder.eventId);
  if (event === undefined) return false;
  // The next one is placed from now, so a reminder due long ago (the server was down) is not repeated.
  const moved = await tx.eventReminders.advance(reminder, nextReminderAt(event, reminder.minutesBefore, now));
  if (!moved || reminder.nextAt === null || now - reminder.nextAt > LATE_MS) return false;
  const item = { groupId: event.groupId, itemKind: "GW_SCHEDULE" as const, itemId: event.id };
  // Access now, not when it was asked for: someone who left the group, or may no longer see the
  // event, or turned personal mail off, gets nothing.
  if (!(await tx.mailReaders.stillReaders(item, "personal", [reminder.userId])).has(reminder.userId)) return false;
  const reader = await tx.mailReaders.personalRecipient(reminder.userId);
  if (reader === undefined) return false;
  const groupName = (await tx.groups.findById(event.groupId))?.name ?? "";
  const lang = langOf(site, reader);
  const start = reminder.nextAt + reminder.minutesBefore * 60_000;
  const mailed = { groupId: event.groupId, groupName, kind: "GW_SCHEDULE" as const, id: event.id };
  const foot = footOf(ctx, key, reader, { kind: "personal" }, { kind: "personal" }, now);
  const words = {
    actor: null,
    event: "reminder" as const,
    itemKind: "GW_SCHEDULE" as const,
    title: event.title,
    groupName,
  };
  const parts = itemMail({
    lang,
    subject: itemSubject(groupName, event.title),
    lines: [{ words, text: reminderWhen(start, event.allDay, lang, zoneOf(site, reader), event.timeZone) }],
    link: itemLink(ctx, mailed),
    foot,
  });
  const replyTo = await replyToOf(ctx, tx, reader, mailed);
  await queueMail(tx, ctx.config.mail, itemOutgoing(ctx, reader, mailed, parts, foot, replyTo), now);
  return true;
}
