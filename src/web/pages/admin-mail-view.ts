// The mail part of /admin/settings: the relay URL and From in force, where each comes from, and the
// form's values. The relay's password is never put in the page: the URL field shows the saved URL
// without it, and the note shows `user:***@host`.
import { hasPassword, maskedSmtpUrl, withoutPassword } from "../../domain/mail-relay.js";
import type { MailRelay, MailRelayChange } from "../../services/settings/mail-relay.js";

/** What the template shows of the mail settings. */
export interface MailView {
  /** The URL field: the saved URL without its password, or what was typed (without a password). */
  readonly urlValue: string;
  readonly fromValue: string;
  /** The relay in force, masked; undefined: the outbox folder. */
  readonly urlInForce: string | undefined;
  readonly urlSource: MailRelay["smtpUrlSource"];
  readonly fromInForce: string;
  readonly fromSource: MailRelay["fromSource"];
  /** Whether a saved URL holds a password (a blank password field keeps it). */
  readonly passwordSaved: boolean;
  readonly error?: string;
  readonly saved?: boolean;
}

/** The view of the relay in force; `typed`: the form as sent, shown back after an error. */
export function mailView(
  relay: MailRelay,
  notes: { readonly typed?: MailRelayChange; readonly error?: string; readonly saved?: boolean } = {},
): MailView {
  const savedUrl = relay.smtpUrlSource === "saved" ? relay.smtpUrl : undefined;
  return {
    urlValue:
      notes.typed === undefined
        ? savedUrl === undefined
          ? ""
          : withoutPassword(savedUrl)
        : shownUrl(notes.typed.smtpUrl),
    fromValue: notes.typed?.from ?? (relay.fromSource === "saved" ? relay.from : ""),
    urlInForce: relay.smtpUrl === undefined ? undefined : maskedSmtpUrl(relay.smtpUrl),
    urlSource: relay.smtpUrlSource,
    fromInForce: relay.from,
    fromSource: relay.fromSource,
    passwordSaved: savedUrl !== undefined && hasPassword(savedUrl),
    ...(notes.error === undefined ? {} : { error: notes.error }),
    ...(notes.saved === true ? { saved: true } : {}),
  };
}

/** A typed URL shown back: without a password; one that is no URL but may hold one is not shown. */
function shownUrl(typed: string): string {
  if (/^smtps?:\/\//i.test(typed) && URL.canParse(typed)) return withoutPassword(typed);
  return typed.includes("@") || typed.includes(":") ? "" : typed;
}
