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

  it("leaves everything else as it is", () => {
    for (const url of [
      "/",
      "/api/board/V2?group=1:2&start-index=20",
      "/g/1:2/board?q=token",
      "/api/board/V2?ical/abc",
      "/joiner/1/2",
    ]) {
      assert.equal(redactUrl(url), url);
    }
  });
});
