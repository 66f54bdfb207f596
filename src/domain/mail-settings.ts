// What a person chose about notification mail, and the rules of those choices
// (docs/operations.md "Notification mail").
import { ValidationError } from "./errors.js";

/** How changes in a person's groups reach them by mail. */
export const MAIL_MODES = ["each", "digest", "off"] as const;

/** One of {@link MAIL_MODES}: a message per changed item, a daily digest, or none. */
export type MailMode = (typeof MAIL_MODES)[number];

/** A person's notification mail settings. */
export interface MailSettings {
  /** Changes in the person's groups (topics, comments, tasks, files, events, members). */
  readonly mode: MailMode;
  /** The local hour (0-23) of the person's time zone at which the daily digest goes out. */
  readonly digestHour: number;
  /** Mentions, assignments to the person and unread direct messages, mailed at once. */
  readonly personal: boolean;
}

/**
 * The settings of everyone who never chose (Discourse's: what names you at once, the rest in a
 * daily summary). A daily digest rather than a message per change, so that a busy group, or the
 * demo, sends a person at most one message a day unless they ask for more.
 */
export const DEFAULT_MAIL_SETTINGS: MailSettings = Object.freeze({ mode: "digest", digestHour: 8, personal: true });

/** A person's choice for one group: follow their settings, or no mail about it at all. */
export type GroupMail = "default" | "off";

/** What one-click unsubscribe turns off: the kind of mail the message was (docs/operations.md). */
export type UnsubscribeScope =
  { readonly kind: "group"; readonly groupId: number } | { readonly kind: "digest" } | { readonly kind: "personal" };

/**
 * Reads the settings form's values.
 * @throws ValidationError MAIL_MODE_INVALID, MAIL_DIGEST_HOUR_INVALID
 */
export function parseMailSettings(input: { mode: string; digestHour: string; personal: boolean }): MailSettings {
  const mode = MAIL_MODES.find((candidate) => candidate === input.mode);
  if (mode === undefined)
    throw new ValidationError("MAIL_MODE_INVALID", `mail must be one of ${MAIL_MODES.join(", ")}.`);
  if (!/^(?:[0-9]|1[0-9]|2[0-3])$/.test(input.digestHour))
    throw new ValidationError("MAIL_DIGEST_HOUR_INVALID", "The digest hour must be a whole hour from 0 to 23.");
  return { mode, digestHour: Number(input.digestHour), personal: input.personal };
}

/** Reads a group's switch from a form. @throws ValidationError MAIL_GROUP_INVALID */
export function parseGroupMail(text: string): GroupMail {
  if (text === "default" || text === "off") return text;
  throw new ValidationError("MAIL_GROUP_INVALID", "A group's mail is either default or off.");
}

/** The scope as the unsubscribe token's claim: `group:12`, `digest`, `personal`. */
export function scopeClaim(scope: UnsubscribeScope): string {
  return scope.kind === "group" ? `group:${scope.groupId}` : scope.kind;
}

/** The scope a claim names; undefined for anything else. */
export function scopeOfClaim(claim: string): UnsubscribeScope | undefined {
  if (claim === "digest" || claim === "personal") return { kind: claim };
  const match = /^group:([1-9][0-9]{0,14})$/.exec(claim);
  return match ? { kind: "group", groupId: Number(match[1]) } : undefined;
}

/** The settings after one-click unsubscribe from `scope` (a group is turned off apart: {@link GroupMail}). */
export function unsubscribed(settings: MailSettings, scope: UnsubscribeScope): MailSettings {
  if (scope.kind === "digest") return settings.mode === "digest" ? { ...settings, mode: "off" } : settings;
  if (scope.kind === "personal") return { ...settings, personal: false };
  return settings;
}
