// The server's sender over the saved relay (services/mail/relay-route.ts), against two real SMTP
// servers: a save moves the next batch to the new relay and closes the old relay's pooled
// connections; a route that cannot give a transport gives the claimed batch back at once.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { queueMail } from "../../src/services/mail/outbox.js";
import { type MailRoute, savedRelayRoute } from "../../src/services/mail/relay-route.js";
import { MailSender } from "../../src/services/mail/sender.js";
import { updateMailRelay } from "../../src/services/settings/mail-relay.js";
import { wakingOnMail } from "../../src/services/mail/wake.js";
import type { Store } from "../../src/store/store.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import { TestClock } from "../support/clock.js";
import { eventually } from "../support/eventually.js";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";

describeEachBackend("the sender over the relay saved in the settings", (backend) => {
  let test: TestStore;
  let first: SmtpSink;
  let second: SmtpSink;
  const clock = new TestClock();
  const log = { warn: () => undefined };
  let n = 0;

  before(async () => {
    test = await openTestStore(backend);
    first = await startSmtpSink();
    second = await startSmtpSink();
  });
  after(async () => {
    await first.close();
    await second.close();
    await test.close();
  });

  const defaults = () => ({
    smtpUrl: first.url,
    from: "kairan@example.com",
    domain: "example.com",
    inboundPort: undefined,
  });
  const ctx = () => ({ store: test.store, clock });
  const queue = (store: Store) =>
    store.transaction((tx) =>
      queueMail(
        tx,
        { domain: "example.com" },
        { kind: "test", to: "bob@example.com", subject: `message ${++n}`, text: "hello" },
        clock.now(),
      ),
    );
  function sender(route: MailRoute) {
    const mailSender = new MailSender(ctx(), route, log, { pollMs: 3_600_000 });
    mailSender.start();
    return { mailSender, store: wakingOnMail(test.store, () => mailSender.wake()) };
  }

  it("moves to the saved relay with the next batch and closes the old relay's connections", async () => {
    const { mailSender, store } = sender(savedRelayRoute(ctx(), defaults(), test.dataDir));
    try {
      const before = await queue(store);
      assert.equal((await first.waitFor((m) => m.parsed.messageId === before)).from, "kairan@example.com");
      assert.ok(first.openConnections() > 0, "the pool keeps its connection");
      await updateMailRelay(ctx(), COMMAND_LINE_ACTOR, defaults(), {
        smtpUrl: second.url,
        smtpPassword: "",
        from: "saved@example.org",
      });
      const afterSave = await queue(store);
      assert.equal((await second.waitFor((m) => m.parsed.messageId === afterSave)).from, "saved@example.org");
      await eventually(async () => first.openConnections() === 0, "the old relay's connections closed");
      await updateMailRelay(ctx(), COMMAND_LINE_ACTOR, defaults(), "clear");
      const cleared = await queue(store);
      await first.waitFor((m) => m.parsed.messageId === cleared);
    } finally {
      await mailSender.stop();
    }
  });

  it("gives a batch back at once when the route cannot give a transport", async () => {
    const real = savedRelayRoute(ctx(), defaults(), test.dataDir);
    let failures = 1;
    const route: MailRoute = {
      readIn: (tx) => real.readIn(tx),
      async transportFor(read) {
        if (failures-- > 0) throw new Error("the database went away");
        return real.transportFor(read as Awaited<ReturnType<typeof real.readIn>>);
      },
      get secrets() {
        return real.secrets;
      },
      close: () => real.close(),
    };
    const { mailSender, store } = sender(route);
    try {
      const messageId = await queue(store);
      await eventually(async () => failures === 0, "the route failed once");
      // No lease ran out (the clock stands still): the claim was given back.
      await eventually(async () => {
        mailSender.wake();
        return first.received.some((m) => m.parsed.messageId === messageId);
      }, "delivered at the next wake");
    } finally {
      await mailSender.stop();
    }
  });
});
