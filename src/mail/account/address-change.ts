// An address change: the confirmation link to the new address; the notice to the new address
// when it is another account's already; the notice to the old address once the change is made.
import { type ComposedMail, type MailLang, compose, siteOf, moment, oneLine } from "./compose.js";

/** Who the messages of an address change are about. */
interface AddressChangeBase {
  readonly lang: MailLang;
  readonly timeZone: string;
  /** The site's name (its setting); "Kairan" when not given. */
  readonly siteName?: string | undefined;
  readonly name: string;
}

/** The confirmation link sent to the new address. */
export function addressConfirmMail(mail: AddressChangeBase & { link: string; expiresAt: number }): ComposedMail {
  const site = siteOf(mail);
  const name = oneLine(mail.name);
  const until = moment(mail.expiresAt, mail.lang, mail.timeZone);
  if (mail.lang === "ja")
    return compose("ja", `${site} のメールアドレス変更の確認`, [
      { text: `${name} さん` },
      {
        text: `${site} のアカウントのメールアドレスを、このアドレスに変更する依頼を受け付けました。次のリンクを開いて変更を確定してください。`,
      },
      { link: mail.link },
      { text: `このリンクは 1 回だけ、${until} まで使えます。確定するまでアドレスは変わりません。` },
      { text: "心当たりがない場合は、このメールを無視してください。" },
    ]);
  return compose("en", `Confirm your new ${site} address`, [
    { text: `Hello ${name},` },
    {
      text: `Someone asked to make this the e-mail address of a ${site} account. Open this link to confirm the change:`,
    },
    { link: mail.link },
    { text: `The link works once, until ${until}. Nothing changes until it is followed.` },
    { text: "If you did not ask for this, ignore this message." },
  ]);
}

/** Sent instead of the confirmation when the new address belongs to another account already. */
export function addressTakenMail(mail: { lang: MailLang; siteName?: string | undefined }): ComposedMail {
  const site = siteOf(mail);
  if (mail.lang === "ja")
    return compose("ja", `${site} のメールアドレス変更について`, [
      {
        text: `${site} のあるアカウントのメールアドレスを、このアドレスに変更する依頼がありましたが、このアドレスはすでに別のアカウントで使われているため、何も変更していません。`,
      },
      {
        text: "ご自分の依頼であれば、このアドレスのアカウントでログインするか、別のアドレスを使ってください。心当たりがない場合は、このメールを無視してください。",
      },
    ]);
  return compose("en", `About a change of address on ${site}`, [
    {
      text: `Someone asked to make this the e-mail address of a ${site} account, but this address belongs to another account here already, so nothing was changed.`,
    },
    {
      text: "If that was you, sign in with this address, or choose another one. If not, you can ignore this message.",
    },
  ]);
}

/** The notice sent to the old address once the change is made. */
export function addressChangedMail(
  mail: AddressChangeBase & { oldEmail: string; newEmail: string; at: number },
): ComposedMail {
  const site = siteOf(mail);
  const name = oneLine(mail.name);
  const when = moment(mail.at, mail.lang, mail.timeZone);
  if (mail.lang === "ja")
    return compose("ja", `${site} のメールアドレスが変更されました`, [
      { text: `${name} さん` },
      {
        text: `${site} のアカウントのメールアドレスが、${when} に ${mail.oldEmail} から ${mail.newEmail} に変更されました。今後のお知らせは新しいアドレスに届きます。`,
      },
      { text: "心当たりがない場合は、すぐにサーバーの管理者に連絡してください。" },
    ]);
  return compose("en", `Your ${site} address was changed`, [
    { text: `Hello ${name},` },
    {
      text: `The e-mail address of your ${site} account was changed from ${mail.oldEmail} to ${mail.newEmail} on ${when}. Messages now go to the new address.`,
    },
    { text: "If you did not do this, tell the server's operator at once." },
  ]);
}
