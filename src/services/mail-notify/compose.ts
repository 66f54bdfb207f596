// What every notification message shares: the reader's language and zone, the item's links, the
// thread and list fields and the signed unsubscribe link.
import type { MailConfig } from "../../config/mail.js";
import type { MailItemKind } from "../../domain/mail-change.js";
import { type UnsubscribeScope } from "../../domain/mail-settings.js";
import { formatPair } from "../../domain/item-id.js";
import { KINDS } from "../../domain/kinds.js";
import { LANGUAGES } from "../../domain/user.js";
import type { MailFoot, MailParts, StopWhat } from "../../mail/notification/item-mail.js";
import { listId, notificationFields, threadId, unsubscribeFields } from "../../mail/notification/headers.js";
import type { MailLang } from "../../mail/notification/texts.js";
import type { OutgoingMail } from "../../mail/message.js";
import type { MailRecipient } from "../../store/queries/mail-readers.js";
import type { MailContext } from "../mail/outbox.js";
import { type ReplyItem, replyAddressFor } from "../mail-reply/reply-address.js";
import type { Tx } from "../../store/store.js";
import type { SiteLocale } from "../settings/site-locale.js";
import { unsubscribeUrl } from "./unsubscribe.js";

/** What the notification mailer needs: a mail context with the site's language and zone. */
export interface NotifyContext extends MailContext {
  readonly config: { readonly mail: MailConfig; readonly locale: MailLang; readonly timeZone: string };
}

/** The language a recipient reads: theirs, else the site's (its settings, read once per pass). */
export function langOf(site: SiteLocale, recipient: MailRecipient): MailLang {
  return LANGUAGES.find((lang) => lang === recipient.lang) ?? site.locale;
}

/** The time zone a recipient lives in: theirs, else the site's. */
export function zoneOf(site: SiteLocale, recipient: MailRecipient): string {
  return recipient.timeZone ?? site.timeZone;
}

/** An item of a group, or a chat room, as a message names it. */
export interface MailedItem {
  readonly groupId: number | null;
  readonly groupName: string | null;
  readonly kind: MailItemKind;
  readonly id: number;
}

/** The page of an item (a comment's place on it when `number` is given). */
export function itemLink(ctx: NotifyContext, item: MailedItem, number: number | null = null): string {
  const base = ctx.baseUrl();
  if (item.kind === "CHAT") return `${base}/mpChat/view?chatRoomId=1%23${item.id}`;
  const group = `${base}/g/${formatPair(item.groupId ?? 0)}`;
  if (item.kind === "GROUP") return `${group}/members`;
  const page = `${group}/${KINDS[item.kind].area}/${formatPair(item.id)}`;
  return number === null ? page : `${page}#comment-${number}`;
}

/** The settings page's mail section. */
export function settingsLink(ctx: NotifyContext): string {
  return `${ctx.baseUrl()}/settings#mail`;
}

/** The foot of a message to `recipient`, its unsubscribe link signed for `scope`. */
export function footOf(
  ctx: NotifyContext,
  key: Buffer,
  recipient: MailRecipient,
  scope: UnsubscribeScope,
  stop: StopWhat,
  now: number,
): MailFoot {
  return {
    settingsUrl: settingsLink(ctx),
    unsubscribeUrl: unsubscribeUrl(ctx, key, recipient.userId, scope, now),
    stop,
  };
}

/**
 * The Reply-To address of a message to `recipient` about `item` (docs/operations.md "Replies by
 * mail"): a reply to it is posted as their comment or chat message. Undefined for a group's member
 * list, and when this server receives no mail.
 */
export async function replyToOf(
  ctx: NotifyContext,
  tx: Tx | undefined,
  recipient: MailRecipient,
  item: MailedItem,
): Promise<string | undefined> {
  const target: ReplyItem | undefined =
    item.kind === "CHAT"
      ? { kind: "CHAT", roomId: item.id }
      : item.kind === "GROUP" || item.groupId === null
        ? undefined
        : { kind: item.kind, groupId: item.groupId, id: item.id };
  return target === undefined ? undefined : replyAddressFor(ctx, tx, recipient.userId, target);
}

/** A message about an item, to `recipient`, in the item's thread for them, answerable at `replyTo`. */
export function itemOutgoing(
  ctx: NotifyContext,
  recipient: MailRecipient,
  item: MailedItem,
  parts: MailParts,
  foot: MailFoot,
  replyTo: string | undefined,
): OutgoingMail {
  const { domain } = ctx.config.mail;
  const list =
    item.groupId === null || item.groupName === null ? undefined : listId(item.groupName, item.groupId, domain);
  return {
    kind: "notification",
    to: recipient.email,
    toName: recipient.name,
    userId: recipient.userId,
    ...parts,
    headers: {
      ...notificationFields({
        thread: threadId(item.kind, item.id, recipient.userId, domain),
        list,
        unsubscribeUrl: foot.unsubscribeUrl,
      }),
      ...(replyTo === undefined ? {} : { "Reply-To": replyTo }),
    },
  };
}

/** A digest to `recipient`. */
export function digestOutgoing(recipient: MailRecipient, parts: MailParts, foot: MailFoot): OutgoingMail {
  return {
    kind: "digest",
    to: recipient.email,
    toName: recipient.name,
    userId: recipient.userId,
    ...parts,
    headers: { ...unsubscribeFields(foot.unsubscribeUrl), "Auto-Submitted": "auto-generated" },
  };
}

/** The longest pause between two of the mailer's transactions. */
const MAX_PAUSE_MS = 100;

/**
 * Pauses as long as the last page of work took (at most MAX_PAUSE_MS): the mailer shares the
 * process with the requests (and, on SQLite, their one writer), and takes at most about half of
 * either while it has mail to write. Measured with `npm run bench:mail-fanout`.
 */
export function giveWay(workedMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(workedMs, 0), MAX_PAUSE_MS)));
}
