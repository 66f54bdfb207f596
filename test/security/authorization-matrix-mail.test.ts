// The authorization matrix of replies by mail: every kind of item an address names (topic, task,
// file, event, chat room) x every kind of sender, around the matrix's secret group. An address is
// the credential here; strangers are people whose address the server made (a notification from
// when they could see the item, a leaked one) but who may not post: a member of another group, an
// invitee, a former member; and senders who hold the member's address without being the member
// (a forwarded notification), or changed it. Each is refused with a 5xx, learns nothing of the
// secret group and changes nothing; the member posts (the positive control).
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { type ContentRef, isContentRef, parseItemId } from "../../src/domain/item-id.js";
import type { ReplyItem } from "../../src/domain/reply.js";
import type { User } from "../../src/domain/user.js";
import { describeEachBackend } from "../support/backends.js";
import { type Answered, replyAddress, sendReply } from "../support/mail-reply.js";
import { type DataSnapshot, type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type MatrixWorld, seedMatrixWorld } from "./matrix-world.js";

const DOMAIN = "reply.matrix.test";

/** One way of sending to an item: whose address, from which mailbox, changed how. */
interface Sender {
  readonly name: string;
  /** The person the address is made for. */
  readonly holder: User;
  /** The From address. */
  readonly from: string;
  readonly address?: (address: string) => string;
  /** Where it is refused (undefined: it is the member, who posts). */
  readonly refusedAt?: "RCPT TO" | "DATA";
}

describeEachBackend("authorization matrix: replies by mail, every item kind x every sender", (backend) => {
  let server: TestServer;
  let world: MatrixWorld;
  let snapshots: Snapshotter;
  let items: { readonly name: string; readonly item: ReplyItem }[];
  let senders: Sender[];

  before(async () => {
    server = await startTestServer(backend, { smtpInbound: true, mailDomain: DOMAIN });
    world = await seedMatrixWorld(server, "SECRET-7f3a");
    snapshots = openSnapshotter(server);
    const content = (id: string): ContentRef => {
      const ref = parseItemId(id);
      assert.ok(ref && isContentRef(ref), id);
      return ref;
    };
    items = [
      { name: "topic", item: content(world.secret.topicId) },
      { name: "task", item: content(world.secret.taskId) },
      { name: "file", item: content(world.secret.fileId) },
      { name: "event", item: content(world.secret.eventId) },
      { name: "chat room", item: { kind: "CHAT", roomId: world.chat.roomId } },
    ];
    const users = await server.store.read((tx) => tx.users.list());
    const named = (name: string) => users.find((user) => user.name === name) ?? assert.fail(name);
    const member = world.member;
    const outsider = named("Outsider");
    senders = [
      { name: "member of another group", holder: outsider, from: outsider.email, refusedAt: "RCPT TO" },
      { name: "invited, not joined", holder: named("Invitee"), from: named("Invitee").email, refusedAt: "RCPT TO" },
      {
        name: "former member (of the group and its chat room)",
        holder: named("Former Member"),
        from: named("Former Member").email,
        refusedAt: "RCPT TO",
      },
      { name: "the member's address, from another mailbox", holder: member, from: outsider.email, refusedAt: "DATA" },
      { name: "the owner's address, from the member", holder: world.owner, from: member.email, refusedAt: "DATA" },
      {
        name: "the member's address, one character changed",
        holder: member,
        from: member.email,
        address: (address) => address.replace(/[a-z2-7](?=@)/, (c) => (c === "a" ? "b" : "a")),
        refusedAt: "RCPT TO",
      },
      {
        name: "the member's address at another domain",
        holder: member,
        from: member.email,
        address: (address) => address.replace(`@${DOMAIN}`, "@elsewhere.example"),
        refusedAt: "RCPT TO",
      },
      { name: "the member, from their own mailbox", holder: member, from: member.email.toUpperCase() },
    ];
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  /** What is wrong with one answer ("" when it is right). */
  const misjudged = (sender: Sender, answer: Answered, change: string): string => {
    const problems: string[] = [];
    if (sender.refusedAt === undefined) {
      if (answer.code !== 250) problems.push(`expected 250, got ${answer.code} ${answer.response}`);
      if (change === "") problems.push("posted nothing");
      return problems.join("; ");
    }
    if (answer.code < 500 || answer.command !== sender.refusedAt)
      problems.push(
        `expected a 5xx at ${sender.refusedAt}, got ${answer.code} at ${answer.command}: ${answer.response}`,
      );
    if (change !== "") problems.push(`changed data: ${change}`);
    for (const secret of world.secrets) if (answer.response.includes(secret)) problems.push(`leaks "${secret}"`);
    return problems.join("; ");
  };

  it("refuses every stranger, leaks nothing, changes nothing; the member posts to each kind of item", async (t) => {
    let sent = 0;
    for (const { name, item } of items) {
      for (const sender of senders) {
        await t.test(`${name}: ${sender.name}`, async () => {
          const made = await replyAddress(server, DOMAIN, sender.holder.id, item);
          const to = sender.address?.(made) ?? made;
          const before: DataSnapshot = await snapshots.take();
          const answer = await sendReply(server.smtpPort, { from: sender.from, to, text: `${sender.name} writes.` });
          sent += 1;
          assert.equal(misjudged(sender, answer, describeChange(before, await snapshots.take())), "");
        });
      }
    }
    t.diagnostic(`mail reply matrix [${backend}]: ${sent} messages over ${items.length} kinds of item`);
  });
});
