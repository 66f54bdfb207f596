// The rules of a relay URL and From saved in /admin/settings: the same as --smtp-url and
// --mail-from accept (config/mail.ts), plus the limits of a stored value and no line breaks.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mailFields } from "../../src/config/mail.js";
import {
  MAIL_FROM_MAX,
  SMTP_URL_MAX,
  checkMailFrom,
  checkSmtpUrl,
  maskedSmtpUrl,
  withPassword,
  withoutPassword,
} from "../../src/domain/mail-relay.js";

const refused = (check: () => unknown, name: string) =>
  assert.throws(check, (e) => (e as { code: string }).code === "SETTING_INVALID" && String(e).includes(name));

describe("a saved relay URL and From", () => {
  it("accepts a URL exactly when --smtp-url does (for URLs without spaces)", () => {
    const samples = [
      "smtp://127.0.0.1:2525",
      "smtps://user:p%40ss@mail.example.com:465",
      "SMTP://Mail.Example.com",
      "smtp://user@mail.example.com:587?pool=true",
      "http://mail.example.com",
      "smtp:/mail.example.com",
      "smtp://",
      "smtp:///path",
      "mail.example.com:25",
      "smtp://[::1",
      "",
    ];
    for (const sample of samples) {
      const byFlag = mailFields.smtpUrl.safeParse(sample).success;
      let bySetting = true;
      try {
        checkSmtpUrl(sample);
      } catch {
        bySetting = false;
      }
      assert.equal(bySetting, byFlag, sample);
    }
  });

  it("refuses a URL with a line break, a space or a tab (which the URL parser would drop silently)", () => {
    for (const sample of [
      "smtp://mail.example.com\r\n:25",
      "smtp://mail.example.com:25\n",
      "smtp://a b",
      "smtp://a\tb",
    ])
      refused(() => checkSmtpUrl(sample), "mailSmtpUrl");
  });

  it(`keeps a URL of ${SMTP_URL_MAX} characters and refuses one more, never repeating it`, () => {
    const base = "smtp://u:TOPSECRET@mail.example.com:25/";
    const longest = base + "a".repeat(SMTP_URL_MAX - base.length);
    assert.equal(checkSmtpUrl(longest), longest);
    assert.throws(
      () => checkSmtpUrl(`${longest}a`),
      (e) => (e as Error).message.includes(`at most ${SMTP_URL_MAX}`) && !(e as Error).message.includes("TOPSECRET"),
    );
  });

  it(`keeps a From of ${MAIL_FROM_MAX} characters and refuses one more`, () => {
    const local = "l".repeat(64);
    const domain = (length: number) => `${"d".repeat(length - ".com".length)}.com`;
    const longest = `${local}@${domain(MAIL_FROM_MAX - 65)}`;
    assert.equal(longest.length, MAIL_FROM_MAX);
    assert.equal(checkMailFrom(longest), longest);
    refused(() => checkMailFrom(`${local}@${domain(MAIL_FROM_MAX - 64)}`), "mailFrom");
  });

  it("refuses a From with a line break anywhere (a header of its own), a name, or two addresses", () => {
    for (const sample of [
      "kairan@example.com\r\nBcc: everyone@example.com",
      "kairan@example.com\n",
      "\rkairan@example.com",
      "Kairan <kairan@example.com>",
      "a@example.com, b@example.com",
      "kairan",
      "",
    ])
      refused(() => checkMailFrom(sample), "mailFrom");
    assert.equal(checkMailFrom("  kairan@example.com "), "kairan@example.com");
  });

  it("masks the password and puts one in or takes it out", () => {
    assert.equal(maskedSmtpUrl("smtp://ops:s3cret@mail.example.com:587"), "smtp://ops:***@mail.example.com:587");
    assert.equal(maskedSmtpUrl("smtps://mail.example.com"), "smtps://mail.example.com");
    assert.equal(withoutPassword("smtp://ops:s3cret@mail.example.com:587"), "smtp://ops@mail.example.com:587");
    const url = withPassword("smtp://ops@mail.example.com:587", "p@ss:w/rd%");
    assert.equal(decodeURIComponent(new URL(url).password), "p@ss:w/rd%");
  });
});
