// The account messages (src/mail/account/): in both languages, the link in both parts, every
// typed value HTML-escaped in the HTML part and folded onto one line wherever it appears.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addressChangedMail, addressConfirmMail, addressTakenMail } from "../../src/mail/account/address-change.js";
import { compose, moment } from "../../src/mail/account/compose.js";
import { invitationMail } from "../../src/mail/account/invitation.js";
import { passwordResetMail } from "../../src/mail/account/password-reset.js";

const AT = Date.parse("2026-04-15T09:00:00Z");
const HOSTILE = `Eve <script>alert("x")</script>\r\nBcc: victim@example.com\n\nhttps://evil.example/phish`;
const LINK = "https://kairan.example/join/1:5/SECRET_abc-123";

function everyMessage() {
  return (["ja", "en"] as const).flatMap((lang) => [
    invitationMail({
      lang,
      timeZone: "Asia/Tokyo",
      groupName: HOSTILE,
      inviterName: HOSTILE,
      link: LINK,
      expiresAt: AT,
      accountExists: false,
    }),
    passwordResetMail({ lang, timeZone: "UTC", name: HOSTILE, email: "ann@example.com", link: LINK, expiresAt: AT }),
    addressConfirmMail({ lang, timeZone: "UTC", name: HOSTILE, link: LINK, expiresAt: AT }),
    addressChangedMail({
      lang,
      timeZone: "UTC",
      name: HOSTILE,
      oldEmail: "old@example.com",
      newEmail: "new@example.com",
      at: AT,
    }),
    addressTakenMail({ lang }),
  ]);
}

describe("account mail templates", () => {
  it("escapes typed values in the HTML part and keeps them on one line in every part", () => {
    for (const mail of everyMessage()) {
      assert.doesNotMatch(mail.html, /<script/, "no markup from a name");
      assert.doesNotMatch(mail.subject, /[\r\n]/, "no line break in the subject");
      // The name's line breaks are gone: "Bcc:" never starts a line, the phishing URL never stands alone.
      assert.doesNotMatch(mail.text, /^Bcc:/m);
      assert.doesNotMatch(mail.text, /^https:\/\/evil/m);
      assert.doesNotMatch(mail.html, /href="https:\/\/evil/);
      if (mail.text.includes("Eve")) assert.match(mail.html, /&#60;script&#62;/);
    }
  });

  it("carries the link in both parts, as a link in the HTML part", () => {
    const mail = invitationMail({
      lang: "en",
      timeZone: "UTC",
      groupName: "Design",
      inviterName: "Maria",
      link: LINK,
      expiresAt: AT,
      accountExists: false,
    });
    assert.equal(mail.subject, 'Invitation to join "Design" on Kairan');
    assert.match(mail.text, /^Maria invites you to join the group "Design" on Kairan\./);
    assert.match(mail.text, new RegExp(`^${LINK}$`, "m"));
    assert.match(mail.html, new RegExp(`<a href="${LINK}">${LINK}</a>`));
    assert.match(mail.text, /works until 15 April 2026 at 09:00 \(UTC\)/);
  });

  it("writes Japanese for a Japanese reader, with the time in their zone", () => {
    const mail = passwordResetMail({
      lang: "ja",
      timeZone: "Asia/Tokyo",
      name: "山田",
      email: "yamada@example.com",
      link: LINK,
      expiresAt: AT,
    });
    assert.equal(mail.subject, "Kairan のパスワードの再設定");
    assert.match(mail.text, /山田 さん/);
    assert.match(mail.text, /2026年4月15日 18:00 \(Asia\/Tokyo\)/);
    assert.match(mail.html, /<html lang="ja">/);
  });

  it("says what an operator's invitation and an existing account's invitation ask", () => {
    const operator = invitationMail({
      lang: "en",
      timeZone: "UTC",
      groupName: "Ops",
      inviterName: undefined,
      link: LINK,
      expiresAt: AT,
      accountExists: true,
    });
    assert.match(operator.text, /^You are invited to join the group "Ops"/);
    assert.match(operator.text, /sign in with this address and accept/);
  });

  it("composes a whole HTML document and formats moments with their zone", () => {
    const mail = compose("en", "S & T", [{ text: "a < b" }, { link: "https://x.example/?a=1&b=2" }]);
    assert.equal(mail.text, "a < b\n\nhttps://x.example/?a=1&b=2\n");
    assert.match(mail.html, /<title>S &#38; T<\/title>/);
    assert.match(mail.html, /<p>a &#60; b<\/p>/);
    assert.match(mail.html, /href="https:\/\/x\.example\/\?a=1&#38;b=2"/);
    assert.equal(moment(AT, "en", "America/New_York"), "15 April 2026 at 05:00 (America/New_York)");
  });
});
