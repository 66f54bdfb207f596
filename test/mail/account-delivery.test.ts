// The account messages through a real SMTP peer (the sink, smtp-server and mailparser): an
// invitation followed from the received mail into the group, a password reset followed from its
// mail, an address change's two messages. What arrives is what a mail client reads: multipart
// text and HTML, the right From, only the recipient in the envelope, no header a name could add.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type ReceivedMail, type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";
import { WebClient } from "../support/web.js";

/** The site path of the link to `server` in a received message's text part. */
function linkIn(mail: ReceivedMail, server: TestServer): string {
  const match = new RegExp(`${server.url.replace(/[.]/g, "\\.")}(/\\S+)`).exec(mail.parsed.text ?? "");
  assert.ok(match?.[1], `a link in:\n${mail.parsed.text}`);
  return match[1];
}

const to = (address: string) => (mail: ReceivedMail) => mail.to.includes(address);

describeEachBackend("account mail through SMTP", (backend) => {
  let sink: SmtpSink;
  let server: TestServer;

  before(async () => {
    sink = await startSmtpSink();
    server = await startTestServer(backend, { smtpUrl: sink.url, locale: "en" });
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  it("delivers an invitation whose link, followed from the mail, makes an account in the group", async () => {
    const maria = await server.factories.user({ name: "Maria" });
    const group = await server.factories.group([maria], { name: "Lunch\r\nBcc: victim@example.com" });
    const manager = new WebClient(server.url);
    await manager.signIn(maria.email);
    await manager.get(`/g/1:${group.id}/members`);
    assert.equal((await manager.post(`/g/1:${group.id}/members/invite`, { email: "nina@example.com" })).status, 200);
    const mail = await sink.waitFor(to("nina@example.com"));
    assert.deepEqual(mail.to, ["nina@example.com"], "only the invitee in the envelope");
    assert.equal(mail.parsed.subject, 'Invitation to join "Lunch Bcc: victim@example.com" on Kairan');
    assert.equal(mail.parsed.headers.get("bcc"), undefined, "no header from the group's name");
    assert.match(mail.raw, /^Content-Type: multipart\/alternative/m);
    assert.match(mail.parsed.html || "", /<a href="http:\/\/127\.0\.0\.1:\d+\/join\//);
    assert.ok(!sink.received.some((m) => m.to.includes("victim@example.com")));
    const link = linkIn(mail, server);
    const nina = new WebClient(server.url);
    assert.equal((await nina.get(link)).status, 200);
    const joined = await nina.post(link, { name: "Nina", password: "nina-pass-1" });
    assert.equal(joined.location, `/g/1:${group.id}/board`);
    assert.match((await nina.get(`/g/1:${group.id}/members`)).html, /Nina/);
  });

  it("delivers a reset link that sets the password, once", async () => {
    const olga = await server.factories.user({ name: "Olga", email: "olga@example.com" });
    const web = new WebClient(server.url);
    await web.get("/password/forgot");
    assert.equal((await web.post("/password/forgot", { email: "olga@example.com" })).status, 200);
    const mail = await sink.waitFor(to("olga@example.com"));
    assert.equal(mail.parsed.subject, "Reset your Kairan password");
    assert.equal(mail.parsed.to && "text" in mail.parsed.to ? mail.parsed.to.text : "", '"Olga" <olga@example.com>');
    const link = linkIn(mail, server);
    await web.get(link);
    assert.equal((await web.post(link, { password: "olga-new-1", repeat: "olga-new-1" })).status, 303);
    await new WebClient(server.url).signIn(olga.email, "olga-new-1");
    assert.equal((await new WebClient(server.url).get(link)).status, 400, "used");
  });

  it("delivers the confirmation to the new address and the notice to the old one", async () => {
    const pia = await server.factories.user({ name: "Pia", email: "pia@example.com" });
    const web = new WebClient(server.url);
    await web.signIn(pia.email);
    await web.get("/account");
    assert.equal((await web.post("/account/email", { email: "pia@new.example", current: "password" })).status, 303);
    const confirm = await sink.waitFor(to("pia@new.example"));
    const link = linkIn(confirm, server);
    const visitor = new WebClient(server.url);
    await visitor.get(link);
    assert.equal((await visitor.post(link)).status, 303);
    const notice = await sink.waitFor(to("pia@example.com"));
    assert.equal(notice.parsed.subject, "Your Kairan address was changed");
    assert.match(notice.parsed.text ?? "", /from pia@example\.com to pia@new\.example/);
  });
});
