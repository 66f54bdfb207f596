// A person's mail reminder of a group event: set and read on the event page, placed again when
// the event's times change, and sent by the notification mailer (mail-notify/reminders.ts).
import type { Actor } from "../../domain/access.js";
import { nextReminderAt } from "../../domain/event-reminder.js";
import type { ContentRef } from "../../domain/item-id.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { requireGroupMember } from "../group/group-access.js";
import { requireEvent } from "./event.js";

/** The caller's reminder of the event in minutes before it, 0 for none. */
export async function readEventReminder(ctx: ServiceContext, actor: Actor, ref: ContentRef): Promise<number> {
  return ctx.store.read(async (tx) => {
    await requireGroupMember(tx, actor, ref.groupId);
    return (await tx.eventReminders.find(ref.id, actor.user.id))?.minutesBefore ?? 0;
  });
}

/**
 * Sets the caller's mail reminder of the event, `minutes` before each occurrence (0: none).
 * The minutes are checked by the caller (domain/event-reminder.ts parseReminderMinutes).
 * @throws NotFoundError GROUP_NOT_FOUND, EVENT_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function setEventReminder(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; minutes: number },
): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    await requireGroupMember(tx, actor, input.ref.groupId);
    const event = await requireEvent(tx, input.ref);
    if (input.minutes === 0) return tx.eventReminders.remove(event.id, actor.user.id);
    const nextAt = nextReminderAt(event, input.minutes, ctx.clock.now());
    return tx.eventReminders.put({ eventId: event.id, userId: actor.user.id, minutesBefore: input.minutes, nextAt });
  });
}

/**
 * Places the event's reminders again after its times changed, inside the change's transaction
 * (the event is read again only when someone asked to be reminded of it).
 */
export async function placeRemindersAgain(tx: Tx, ref: ContentRef, now: number): Promise<void> {
  const reminders = await tx.eventReminders.ofEvent(ref.id);
  if (reminders.length === 0) return;
  const event = await requireEvent(tx, ref);
  for (const reminder of reminders)
    await tx.eventReminders.put({ ...reminder, nextAt: nextReminderAt(event, reminder.minutesBefore, now) });
}
