// The message a webhook's owner gets when it disabled itself after repeated failed deliveries.
import { type ComposedMail, type MailLang, compose, oneLine, siteOf } from "./compose.js";

/** What the message says. */
export interface WebhookDisabledMail {
  readonly lang: MailLang;
  readonly siteName?: string | undefined;
  readonly name: string;
  /** The webhook's address (where deliveries failed). */
  readonly url: string;
  readonly failures: number;
  /** The page that manages the webhook and shows its log. */
  readonly link: string;
}

/** Subject, text and HTML of the message. */
export function webhookDisabledMail(mail: WebhookDisabledMail): ComposedMail {
  const site = siteOf(mail);
  const name = oneLine(mail.name);
  const url = oneLine(mail.url);
  if (mail.lang === "ja")
    return compose("ja", `${site} の Webhook を停止しました`, [
      { text: `${name} さん` },
      { text: `Webhook ${url} への配信が ${mail.failures} 回続けて失敗したため、この Webhook を停止しました。` },
      { text: "配信の記録を確かめ、受け手を直してから、次のページで再開してください。" },
      { link: mail.link },
    ]);
  return compose("en", `Your ${site} webhook was disabled`, [
    { text: `Hello ${name},` },
    { text: `Deliveries to the webhook ${url} failed ${mail.failures} times in a row, so it was disabled.` },
    { text: "Look at its delivery log, fix the receiver, then enable it again on this page:" },
    { link: mail.link },
  ]);
}
