// The invitation to join a group, sent to the invited address with the join link.
import { type ComposedMail, type MailLang, compose, siteOf, moment, oneLine } from "./compose.js";

/** What an invitation message says. */
export interface InvitationMail {
  readonly lang: MailLang;
  readonly timeZone: string;
  /** The site's name (its setting); "Kairan" when not given. */
  readonly siteName?: string | undefined;
  readonly groupName: string;
  /** The manager who invited; undefined for an operator's invitation (`kairan member invite --send`). */
  readonly inviterName: string | undefined;
  /** `{base}/join/1:m/SECRET`. */
  readonly link: string;
  readonly expiresAt: number;
  /** The address has an account: its holder signs in and accepts, rather than making one. */
  readonly accountExists: boolean;
  /** The name of the imported account the link hands over (its history is the recipient's). */
  readonly claimName?: string;
}

/** Subject, text and HTML of an invitation. */
export function invitationMail(mail: InvitationMail): ComposedMail {
  const site = siteOf(mail);
  const group = oneLine(mail.groupName);
  const inviter = mail.inviterName === undefined ? undefined : oneLine(mail.inviterName);
  const until = moment(mail.expiresAt, mail.lang, mail.timeZone);
  const claim = mail.claimName === undefined ? undefined : oneLine(mail.claimName);
  if (mail.lang === "ja")
    return compose("ja", `${site} のグループ「${group}」への招待`, [
      {
        text:
          inviter === undefined
            ? `${site} のグループ「${group}」に招待されました。`
            : `${inviter} さんが ${site} のグループ「${group}」にあなたを招待しました。`,
      },
      {
        text:
          claim !== undefined
            ? `以前のサービスから「${claim}」として取り込まれた投稿やコメントは、このアカウントにあります。次のリンクを開いて名前とパスワードを決めると、このアカウントを引き継げます。`
            : mail.accountExists
              ? "次のリンクを開き、このメールアドレスでログインして招待を承認してください。"
              : "次のリンクを開くと、このメールアドレスでアカウントを作って参加できます。",
      },
      { link: mail.link },
      { text: `このリンクは ${until} まで有効です。` },
      { text: "心当たりがない場合は、このメールを無視してください。" },
    ]);
  return compose("en", `Invitation to join "${group}" on ${site}`, [
    {
      text:
        inviter === undefined
          ? `You are invited to join the group "${group}" on ${site}.`
          : `${inviter} invites you to join the group "${group}" on ${site}.`,
    },
    {
      text:
        claim !== undefined
          ? `Your posts and comments from the original service were imported under the account "${claim}". Open this link and choose your name and password to take that account over:`
          : mail.accountExists
            ? "Open this link, sign in with this address and accept the invitation:"
            : "Open this link to make your account with this address and join:",
    },
    { link: mail.link },
    { text: `The link works until ${until}.` },
    { text: "If you did not expect this invitation, you can ignore this message." },
  ]);
}
