// The password reset link, sent to an account's address when someone asks for it on the sign-in
// page (or an operator runs `kairan user reset-password`).
import { type ComposedMail, type MailLang, compose, siteOf, moment, oneLine } from "./compose.js";

/** What a password reset message says. */
export interface PasswordResetMail {
  readonly lang: MailLang;
  readonly timeZone: string;
  /** The site's name (its setting); "Kairan" when not given. */
  readonly siteName?: string | undefined;
  readonly name: string;
  readonly email: string;
  /** `{base}/password/reset/SECRET`. */
  readonly link: string;
  readonly expiresAt: number;
}

/** Subject, text and HTML of a password reset message. */
export function passwordResetMail(mail: PasswordResetMail): ComposedMail {
  const site = siteOf(mail);
  const name = oneLine(mail.name);
  const until = moment(mail.expiresAt, mail.lang, mail.timeZone);
  if (mail.lang === "ja")
    return compose("ja", `${site} のパスワードの再設定`, [
      { text: `${name} さん` },
      {
        text: `${site} のアカウント ${mail.email} のパスワードの再設定を受け付けました。次のリンクを開いて、新しいパスワードを決めてください。`,
      },
      { link: mail.link },
      { text: `このリンクは 1 回だけ、${until} まで使えます。再設定すると、ほかのブラウザーはログアウトします。` },
      { text: "心当たりがない場合は、このメールを無視してください。パスワードは変わりません。" },
    ]);
  return compose("en", `Reset your ${site} password`, [
    { text: `Hello ${name},` },
    {
      text: `Someone (we hope you) asked to reset the password of the ${site} account ${mail.email}. Open this link to choose a new one:`,
    },
    { link: mail.link },
    { text: `The link works once, until ${until}. Resetting signs out every other browser.` },
    { text: "If you did not ask for this, ignore this message: your password stays as it is." },
  ]);
}
