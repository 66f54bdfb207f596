// The mail relay and From saved in /admin/settings, over real HTTP and two real SMTP servers: the
// server starts with --smtp-url pointing at the first; after a save, the next message (and the
// test message) goes to the second with the new From, without a restart; "forget" returns to the
// option. The relay's password never shows in the page, the audit rows, the stored row or the log.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { queueMail } from "../../src/services/mail/outbox.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** With characters a URL writes percent-encoded: typed in its own field, it reaches the relay as typed. */
const PASSWORD = "Rel4y-P@ss:w/rd%";
const ENCODED = encodeURIComponent(PASSWORD);

describeEachBackend("web: the mail relay and From saved in /admin/settings", (backend) => {
  let server: TestServer;
  let first: SmtpSink;
  let second: SmtpSink;
  let adminWeb: WebClient;
  let memberWeb: WebClient;
  let member: TestUser;
  const logged: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const logLevel = process.env.KAIRAN_TEST_LOG;

  before(async () => {
    // The server's log (standard error) is kept to show the password is never in it.
    process.env.KAIRAN_TEST_LOG = "info";
    process.stderr.write = ((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    first = await startSmtpSink();
    second = await startSmtpSink({ auth: true });
    server = await startTestServer(backend, { smtpUrl: first.url, publicUrl: "https://kairan.example.com" });
    const admin = await server.factories.user({ name: "Ada Admin" });
    member = await server.factories.user({ name: "Mem Ber" });
    await server.store.transaction((tx) => tx.users.update(admin.id, { siteAdmin: true }));
    adminWeb = new WebClient(server.url);
    memberWeb = new WebClient(server.url);
    await adminWeb.signIn(admin.email);
    await memberWeb.signIn(member.email);
  });
  after(async () => {
    await server?.close();
    await first?.close();
    await second?.close();
    process.stderr.write = write;
    if (logLevel === undefined) delete process.env.KAIRAN_TEST_LOG;
    else process.env.KAIRAN_TEST_LOG = logLevel;
  });

  /** Queues a message as any change would, and wakes the server's sender. */
  const queue = async (subject: string) => {
    const messageId = await server.store.transaction((tx) =>
      queueMail(
        tx,
        { domain: "kairan.example.com" },
        { kind: "test", to: "carol@example.com", subject, text: "hello" },
        server.clock.now(),
      ),
    );
    server.app.mailSender.wake();
    return messageId;
  };
  const settingsRows = () => server.store.read((tx) => tx.siteSettings.all());
  const audit = () => server.store.read((tx) => tx.auditEvents.list({ limit: 500 }));
  const save = async (fields: Record<string, string>) => {
    await adminWeb.get("/admin/settings");
    return adminWeb.post("/admin/settings/mail", { mailSmtpPassword: "", action: "save", ...fields });
  };

  it("shows the option's relay and the default From, and sends through the option's relay", async () => {
    const page = await adminWeb.get("/admin/settings");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "settings with mail");
    assert.match(page.html, new RegExp(`<code>smtp://127\\.0\\.0\\.1:${first.port}</code> \\(from --smtp-url`));
    assert.match(page.html, /<code>kairan@kairan\.example\.com<\/code> \(the default\)/);
    const messageId = await queue("before the save");
    const mail = await first.waitFor((received) => received.parsed.messageId === messageId);
    assert.equal(mail.from, "kairan@kairan.example.com");
  });

  it("sends the next message through the saved relay with the saved From, without a restart", async () => {
    const url = `smtp://relayuser@127.0.0.1:${second.port}`;
    const saved = await save({ mailSmtpUrl: url, mailSmtpPassword: PASSWORD, mailFrom: "notices@example.org" });
    assert.equal(saved.status, 303, saved.html.slice(0, 300));
    const messageId = await queue("after the save");
    const mail = await second.waitFor((received) => received.parsed.messageId === messageId);
    assert.equal(mail.from, "notices@example.org");
    assert.equal(mail.parsed.from?.value[0]?.address, "notices@example.org");
    assert.deepEqual(second.logins.at(-1), { user: "relayuser", password: PASSWORD }, "signed in with the password");
    assert.ok(!first.received.some((received) => received.parsed.messageId === messageId));

    const page = await adminWeb.get("/admin/settings?saved=mail");
    await assertValidHtml(page.html, "settings with a saved relay");
    assert.match(
      page.html,
      new RegExp(`<code>smtp://relayuser:\\*\\*\\*@127\\.0\\.0\\.1:${second.port}</code> \\(saved here\\)`),
    );
    assert.match(page.html, /<code>notices@example\.org<\/code> \(saved here\)/);
    assert.match(
      page.html,
      new RegExp(`name="mailSmtpUrl" [^>]*value="smtp://relayuser@127\\.0\\.0\\.1:${second.port}"`),
    );
    assert.match(page.html, /name="mailSmtpPassword" [^>]*value=""/);
    assert.match(page.html, /A password is saved/);
    assert.ok(!page.html.includes(PASSWORD) && !page.html.includes(ENCODED), "the page never shows the password");

    const row = (await audit()).find((r) => r.action === "settings.change" && r.target_id === "mail");
    assert.ok(row, "the save wrote its audit row");
    assert.match(row.details, /"mailFrom":\{"before":"","after":"notices@example.org"\}/);
    assert.match(row.details, /relayuser:\*\*\*@127\.0\.0\.1/);
    const stored = (await settingsRows()).find((r) => r.name === "mailSmtpUrl");
    assert.ok(stored, "the URL is kept in the database");
    assert.ok(![PASSWORD, ENCODED, "relayuser"].some((part) => stored.value.includes(part)), "sealed");
  });

  it("sends the test message through the saved relay and From", async () => {
    await adminWeb.get("/admin/settings");
    const sent = await adminWeb.post("/admin/settings/test-mail", { to: "check@example.com" });
    assert.equal(sent.status, 200, sent.html.slice(0, 300));
    const mail = await second.waitFor((received) => received.to.includes("check@example.com"));
    assert.equal(mail.from, "notices@example.org");
  });

  it("keeps the saved password when the field is left blank, and follows a changed From", async () => {
    const url = `smtp://relayuser@127.0.0.1:${second.port}`;
    const before = (await settingsRows()).find((r) => r.name === "mailSmtpUrl")?.value;
    assert.equal((await save({ mailSmtpUrl: url, mailFrom: "other@example.org" })).status, 303);
    assert.equal((await settingsRows()).find((r) => r.name === "mailSmtpUrl")?.value, before, "the URL unchanged");
    assert.match((await adminWeb.get("/admin/settings")).html, /A password is saved/);
    const messageId = await queue("a new From");
    const logins = second.logins.length;
    const mail = await second.waitFor((received) => received.parsed.messageId === messageId);
    assert.equal(mail.from, "other@example.org");
    // A new From reopened the transport: a new connection, signed in with the kept password.
    assert.ok(second.logins.length > logins);
    assert.deepEqual(second.logins.at(-1), { user: "relayuser", password: PASSWORD });
  });

  it("refuses a bad URL or From (a line break among them) with the form again, changing nothing", async () => {
    const before = await settingsRows();
    const rowsBefore = (await audit()).filter((r) => r.action === "settings.change" && r.outcome === "done").length;
    const cases: [Record<string, string>, string][] = [
      [{ mailSmtpUrl: "http://mail.example.com", mailFrom: "" }, "mailSmtpUrl"],
      [{ mailSmtpUrl: "smtp://", mailFrom: "" }, "mailSmtpUrl"],
      [{ mailSmtpUrl: `smtp://u:${PASSWORD}@mail example.com`, mailFrom: "" }, "mailSmtpUrl"],
      [{ mailSmtpUrl: "smtp://mail.example.com\r\n:25", mailFrom: "" }, "mailSmtpUrl"],
      [{ mailSmtpUrl: "", mailFrom: "kairan" }, "mailFrom"],
      [{ mailSmtpUrl: "", mailFrom: "kairan@example.com\r\nBcc: everyone@example.com" }, "mailFrom"],
      [{ mailSmtpUrl: "", mailFrom: "Kairan <kairan@example.com>" }, "mailFrom"],
      [{ mailSmtpUrl: "", mailFrom: `${"l".repeat(64)}@${"d".repeat(187)}.com` }, "mailFrom"],
    ];
    for (const [fields, name] of cases) {
      const answer = await save(fields);
      assert.equal(answer.status, 400, JSON.stringify(fields));
      assert.match(answer.html, new RegExp(`id="mail-settings-error">${name} `), JSON.stringify(fields));
      assert.ok(!answer.html.includes(PASSWORD), "a typed password is never shown back");
      await assertValidHtml(answer.html, "refused mail settings");
    }
    assert.deepEqual(await settingsRows(), before);
    const rowsAfter = (await audit()).filter((r) => r.action === "settings.change" && r.outcome === "done").length;
    assert.equal(rowsAfter, rowsBefore);
  });

  it("keeps a From of 254 characters and refuses one of 255", async () => {
    const longest = `${"l".repeat(64)}@${"d".repeat(185)}.com`;
    assert.equal(longest.length, 254);
    const url = `smtp://relayuser@127.0.0.1:${second.port}`;
    assert.equal((await save({ mailSmtpUrl: url, mailFrom: longest })).status, 303);
    assert.equal((await save({ mailSmtpUrl: url, mailFrom: `${longest.slice(0, -4)}d.com` })).status, 400);
    assert.match((await adminWeb.get("/admin/settings")).html, new RegExp(`<code>${longest}</code> \\(saved here\\)`));
  });

  it("refuses an ordinary member with 403 and changes nothing", async () => {
    const before = await settingsRows();
    await memberWeb.get("/settings");
    const answer = await memberWeb.post("/admin/settings/mail", {
      mailSmtpUrl: "smtp://evil.example.com",
      mailFrom: "",
    });
    assert.equal(answer.status, 403);
    assert.deepEqual(await settingsRows(), before);
  });

  it("forgets the saved settings: back to the option's relay and the default From", async () => {
    await adminWeb.get("/admin/settings");
    const cleared = await adminWeb.post("/admin/settings/mail", { mailSmtpUrl: "", mailFrom: "", action: "clear" });
    assert.equal(cleared.status, 303);
    assert.deepEqual(
      (await settingsRows()).filter((r) => r.name.startsWith("mail")),
      [],
      "the rows are gone",
    );
    const messageId = await queue("after forgetting");
    const mail = await first.waitFor((received) => received.parsed.messageId === messageId);
    assert.equal(mail.from, "kairan@kairan.example.com");
    assert.match((await adminWeb.get("/admin/settings")).html, /\(from --smtp-url or KAIRAN_SMTP_URL\)/);
  });

  it("never wrote the password to the audit log or the server's log", async () => {
    assert.ok(logged.length > 0, "the log was kept");
    assert.ok(!logged.join("").includes(PASSWORD) && !logged.join("").includes(ENCODED), "not in the log");
    const rows = await audit();
    assert.ok(rows.some((r) => r.target_id === "mail"));
    assert.ok(![PASSWORD, ENCODED].some((part) => JSON.stringify(rows).includes(part)), "not in the audit log");
  });
});
