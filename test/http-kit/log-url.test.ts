// The one redaction of logged URLs (src/http-kit/log-url.ts): every credential Kairan's routes take
// in a path or a query, whatever the spelling, and nothing else.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { redactUrl } from "../../src/http-kit/log-url.js";

describe("redactUrl", () => {
  it("redacts OAuth's token, signature, verifier and callback, xAuth's password and access_token", () => {
    const url =
      "/api/board/V2?group=1%3A2&oauth_consumer_key=ck&oauth_token=T0K&oauth_signature=S1G%3D&oauth_nonce=n1" +
      "&oauth_verifier=V3R&oauth_callback=https%3A%2F%2Fc.example%2F%3Fsession%3Dx&x_auth_password=PW&access_token=AT";
    assert.equal(
      redactUrl(url),
      "/api/board/V2?group=1%3A2&oauth_consumer_key=ck&oauth_token=[secret]&oauth_signature=[secret]&oauth_nonce=n1" +
        "&oauth_verifier=[secret]&oauth_callback=[secret]&x_auth_password=[secret]&access_token=[secret]",
    );
  });

  it("redacts single sign-on's authorization code, and only a parameter named exactly code", () => {
    assert.equal(
      redactUrl("/signin/oidc/callback?code=abc&state=s&iss=http%3A%2F%2F127.0.0.1"),
      "/signin/oidc/callback?code=[secret]&state=s&iss=http%3A%2F%2F127.0.0.1",
    );
    assert.equal(redactUrl("/x?zipcode=1"), "/x?zipcode=1");
  });

  it("reads names as the server does: percent-encoded, any letter case, without a value", () => {
    assert.equal(redactUrl("/oauth/authorize?oauth%5Ftoken=T"), "/oauth/authorize?oauth%5Ftoken=[secret]");
    assert.equal(redactUrl("/oauth/verify?OAUTH_TOKEN=T&x=1"), "/oauth/verify?OAUTH_TOKEN=[secret]&x=1");
    assert.equal(
      redactUrl("/x?token&secret=&csrf_token=c&_csrf=d"),
      "/x?token=[secret]&secret=[secret]&csrf_token=[secret]&_csrf=[secret]",
    );
    assert.equal(
      redactUrl("/x?%E0%A4%A=1&token%ZZ=2"),
      "/x?%E0%A4%A=1&token%ZZ=[secret]",
      "undecodable names are read raw",
    );
  });

  it("redacts the secret of invitation links and calendar addresses, on the mobile prefix too", () => {
    assert.equal(redactUrl("/join/1:5/s3cr3t"), "/join/1:5/[secret]");
    assert.equal(redactUrl("/m/join/1:5/s3cr3t?lang=en"), "/m/join/1:5/[secret]?lang=en");
    assert.equal(redactUrl("//JOIN/1:5/s3cr3t/extra"), "//JOIN/1:5/[secret]/extra");
    assert.equal(redactUrl("/ical/abcDEF_-123/me.ics"), "/ical/[secret]/me.ics");
    assert.equal(redactUrl("/ical/abc/group/1:2.ics?x=1"), "/ical/[secret]/group/1:2.ics?x=1");
  });

  it("redacts the account links: password reset, address confirmation, first-run setup", () => {
    assert.equal(redactUrl("/password/reset/s3cr3t"), "/password/reset/[secret]");
    assert.equal(redactUrl("/m/password/reset/s3cr3t?x=1"), "/m/password/reset/[secret]?x=1");
    assert.equal(redactUrl("//Password//RESET/s3cr3t"), "//Password//RESET/[secret]");
    assert.equal(redactUrl("/account/email/confirm/s3cr3t"), "/account/email/confirm/[secret]");
    assert.equal(redactUrl("/m/account/email/confirm/s3cr3t/x"), "/m/account/email/confirm/[secret]/x");
    assert.equal(redactUrl("/setup/s3cr3t"), "/setup/[secret]");
    assert.equal(redactUrl("/SETUP/s3cr3t?lang=ja"), "/SETUP/[secret]?lang=ja");
  });

  it("redacts a secret path carried in a query value (sign-in's next), however encoded", () => {
    assert.equal(redactUrl("/signin?next=%2Fjoin%2F1%3A5%2Fs3cr3t"), "/signin?next=%2Fjoin%2F1%3A5%2F%5Bsecret%5D");
    assert.equal(redactUrl("/signin?next=/join/1:5/s3cr3t&x=1"), "/signin?next=%2Fjoin%2F1%3A5%2F%5Bsecret%5D&x=1");
    assert.equal(
      redactUrl("/m/signin?next=%2Fpassword%2Freset%2Fs3cr3t"),
      "/m/signin?next=%2Fpassword%2Freset%2F%5Bsecret%5D",
    );
    assert.equal(
      redactUrl("/signin?next=%2Fg%2F1%3A2%2Fboard"),
      "/signin?next=%2Fg%2F1%3A2%2Fboard",
      "other paths stay",
    );
  });

  it("redacts the token of a notification's unsubscribe link, on the mobile prefix too", () => {
    assert.equal(redactUrl("/unsubscribe/WzE3OTA1ODYz.lvDY0ZmqtzahEJ"), "/unsubscribe/[secret]");
    assert.equal(redactUrl("/m/unsubscribe/WzE3.lvDY?x=1"), "/m/unsubscribe/[secret]?x=1");
    assert.equal(redactUrl("//UNSUBSCRIBE//tok.en/more"), "//UNSUBSCRIBE//[secret]/more");
    assert.equal(redactUrl("/unsubscriber/tok"), "/unsubscriber/tok");
  });

  it("leaves everything else as it is", () => {
    for (const url of [
      "/",
      "/api/board/V2?group=1:2&start-index=20",
      "/g/1:2/board?q=token",
      "/api/board/V2?ical/abc",
      "/joiner/1/2",
      "/password/forgot",
      "/setups/x",
      "/account/email",
    ]) {
      assert.equal(redactUrl(url), url);
    }
  });
});
