import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/config.js";

describe("mail configuration", () => {
  it("defaults to the outbox, a sender and a domain from the public URL", () => {
    const mail = loadConfig({ publicUrl: "https://Team.Example.com/kairan" }, {}).mail;
    assert.deepEqual(mail, {
      smtpUrl: undefined,
      from: "kairan@team.example.com",
      // The settings page says the From in use is the default.
      fromIsDefault: true,
      domain: "team.example.com",
      inboundPort: undefined,
    });
  });

  it("falls back to localhost when the site's host is an address or a bare name", () => {
    assert.equal(loadConfig({}, {}).mail.domain, "localhost");
    assert.equal(loadConfig({ publicUrl: "http://10.0.0.5:8080" }, {}).mail.domain, "localhost");
  });

  it("reads flags over the environment", () => {
    const mail = loadConfig(
      { smtpUrl: "smtps://u:p@mail.example.com:465", mailDomain: "reply.example.com", smtpInboundPort: "0" },
      { KAIRAN_SMTP_URL: "smtp://other:25", KAIRAN_MAIL_FROM: "team@example.com" },
    ).mail;
    assert.equal(mail.smtpUrl, "smtps://u:p@mail.example.com:465");
    assert.equal(mail.from, "team@example.com");
    assert.equal(mail.fromIsDefault, false);
    assert.equal(mail.domain, "reply.example.com");
    assert.equal(mail.inboundPort, 0);
  });

  it("refuses bad values all at once and never echoes the SMTP URL", () => {
    const secret = "http://user:hunter2@mail.example.com";
    assert.throws(
      () =>
        loadConfig(
          {
            smtpUrl: secret,
            mailFrom: "Team <team@example.com>\r\nBcc: x@evil.test",
            mailDomain: "a b",
            smtpInboundPort: "65536",
          },
          {},
        ),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 4, error.message);
        assert.ok(!error.message.includes("hunter2"), error.message);
        assert.match(
          error.message,
          /--smtp-url \/ KAIRAN_SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL \(got \(hidden\)\)/,
        );
        return true;
      },
    );
  });

  it("takes port 65535 and refuses 65536", () => {
    assert.equal(loadConfig({ smtpInboundPort: "65535" }, {}).mail.inboundPort, 65535);
    assert.throws(() => loadConfig({ smtpInboundPort: "65536" }, {}), ConfigError);
  });
});
