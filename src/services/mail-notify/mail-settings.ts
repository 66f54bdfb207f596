// A person's notification mail settings (the settings page) and their switch per group (the
// group's member page). Reads and writes of mail_settings and mail_group_settings live here.
import type { Actor } from "../../domain/access.js";
import type { Group } from "../../domain/group.js";
import { type GroupMail, type MailSettings, parseMailSettings } from "../../domain/mail-settings.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";

/** A joined group and whether the person turned its mail off (or muted it: no activity mail either). */
export interface GroupMailView {
  readonly group: Group;
  readonly mail: GroupMail;
  /** "Do not notify": the group's changes are not mailed (mentions and assignments still are). */
  readonly muted: boolean;
}

/** What the settings page shows of notification mail. */
export interface MailSettingsView {
  readonly settings: MailSettings;
  readonly groups: readonly GroupMailView[];
}

/** The caller's settings and their joined groups' switches, groups by name. */
export async function readMailSettings(ctx: ServiceContext, actor: Actor): Promise<MailSettingsView> {
  return ctx.store.read(async (tx) => {
    const userId = actor.user.id;
    const off = await tx.mailSettings.groupsOff(userId);
    const groups: GroupMailView[] = [];
    for (const membership of await tx.memberships.listJoinedOfUser(userId)) {
      const group = await tx.groups.findById(membership.groupId);
      if (group) groups.push({ group, mail: off.has(group.id) ? "off" : "default", muted: !membership.notify });
    }
    groups.sort((a, b) => a.group.name.localeCompare(b.group.name) || a.group.id - b.group.id);
    return { settings: await tx.mailSettings.find(userId), groups };
  });
}

/**
 * Keeps the caller's settings from the form's values.
 * @throws ValidationError MAIL_MODE_INVALID, MAIL_DIGEST_HOUR_INVALID (nothing changed)
 */
export async function saveMailSettings(
  ctx: ServiceContext,
  actor: Actor,
  input: { mode: string; digestHour: string; personal: boolean },
): Promise<MailSettings> {
  const settings = parseMailSettings(input);
  await ctx.store.transaction((tx) => tx.mailSettings.save(actor.user.id, settings, ctx.clock.now()));
  return settings;
}

/** The caller's switch for one group. @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function readGroupMail(ctx: ServiceContext, actor: Actor, groupId: number): Promise<GroupMail> {
  return ctx.store.read(async (tx) => {
    await requireGroupMember(tx, actor, groupId);
    return (await tx.mailSettings.groupsOff(actor.user.id)).has(groupId) ? "off" : "default";
  });
}

/**
 * Sets the caller's switch for one group: follow their settings, or no mail about it at all.
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function setGroupMail(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; mail: GroupMail },
): Promise<GroupMail> {
  return ctx.store.transaction(async (tx) => {
    await requireGroupMember(tx, actor, input.groupId);
    await tx.mailSettings.setGroupOff(actor.user.id, input.groupId, input.mail === "off", ctx.clock.now());
    return input.mail;
  });
}
