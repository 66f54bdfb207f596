// The browser's time zone: taken for an account that has none when its person signs up or signs
// in, and offered (the pages' notice) when it differs from the account's; accepting the offer sets
// the account's zone alone.
import type { Actor } from "../../domain/access.js";
import { ValidationError } from "../../domain/errors.js";
import { browserTimeZone, parseTimeZone } from "../../domain/user.js";
import type { ServiceContext } from "../context.js";

/**
 * After a sign-in: stores the browser's zone when the account has none, and returns it when the
 * account's differs (the zone to offer); undefined otherwise (no zone reported, or the same).
 */
export async function adoptBrowserZone(
  ctx: ServiceContext,
  userId: number,
  reported: string | undefined,
): Promise<string | undefined> {
  const zone = browserTimeZone(reported);
  if (zone === undefined) return undefined;
  return ctx.store.transaction(async (tx) => {
    const preferences = await tx.users.findPreferences(userId);
    if (preferences === undefined) return undefined;
    if (preferences.timeZone === null) {
      await tx.users.update(userId, { timeZone: zone });
      return undefined;
    }
    return preferences.timeZone === zone ? undefined : zone;
  });
}

/**
 * Sets the caller's time zone and nothing else (the offer's "switch").
 * @throws ValidationError TIME_ZONE_INVALID (none given, or not a zone)
 */
export async function setTimeZone(ctx: ServiceContext, actor: Actor, text: string): Promise<string> {
  const zone = parseTimeZone(text);
  if (zone === null) throw new ValidationError("TIME_ZONE_INVALID", "Choose a time zone such as Asia/Tokyo.");
  await ctx.store.transaction((tx) => tx.users.update(actor.user.id, { timeZone: zone }).then(() => undefined));
  return zone;
}
