// Replies by mail end to end: nodemailer sends to the listener of a real server
// (--smtp-inbound-port), and the reply becomes a comment (or chat message) by the person the
// address names, read back through the API. Every refusal writes nothing (the whole database and
// the stored files compared before and after) and is answered with its SMTP code.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { ContentRef } from "../../src/domain/item-id.js";
import { NS } from "../../src/atom/namespaces.js";
import { childText } from "../../src/atom/parse.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { entriesOf, request } from "../support/http.js";
import { type Answered, type Reply, replyAddress, sendReply } from "../support/mail-reply.js";
import { type DataSnapshot, type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { ChatClient } from "../support/chat.js";
import { addTestFile } from "../support/files.js";
import { seedEvent } from "../support/world.js";
import { removeMember } from "../../src/services/member/member-admin.js";
import { deleteTask, trashTask } from "../../src/services/task/task-write.js";

const DOMAIN = "reply.kairan.test";
const QUOTE =
  "\n\nOn Fri, Nov 27, 2026 at 10:00 AM Kairan <kairan@kairan.test> wrote:\n\n> Alice commented: bring the slides?\n";

describeEachBackend("replies by mail", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let topic: ContentRef;

  before(async () => {
    server = await startTestServer(backend, { smtpInbound: true, mailDomain: DOMAIN });
    snapshots = openSnapshotter(server);
    alice = await server.factories.user({ name: "Alice", email: "alice@example.com" });
    bob = await server.factories.user({ name: "Bob", email: "Bob.Example@Example.com" });
    group = await server.factories.group([alice, bob]);
    const made = await server.factories.topic(group, alice, { title: "Budget" });
    topic = { kind: "BOARD", groupId: group.id, id: made.id };
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  const commentsOf = async (item: ContentRef, reader: TestUser = alice) => {
    const id = `GROUP,1:${item.groupId},${item.kind},1:${item.id}`;
    const answer = await request(`${server.url}/api/comment/V2?entry=${encodeURIComponent(id)}`, {
      token: reader.token,
    });
    assert.equal(answer.status, 200, answer.text);
    return entriesOf(answer.xml).reverse();
  };
  const textOf = (entry: ReturnType<typeof entriesOf>[number]) => childText(entry, NS.atom, "summary") ?? "";
  const authorOf = (entry: ReturnType<typeof entriesOf>[number]) =>
    entry.children.find((c) => c.local === "author")?.children.find((c) => c.local === "name")?.text;

  /** Sends `reply` and asserts it was refused with `code` (at `command`) and wrote nothing. */
  const refused = async (reply: Reply, code: number, command: string, text: RegExp): Promise<Answered> => {
    const before: DataSnapshot = await snapshots.take();
    const answer = await sendReply(server.smtpPort, reply);
    assert.equal(answer.code, code, JSON.stringify(answer));
    assert.equal(answer.command, command, JSON.stringify(answer));
    assert.match(answer.response, text);
    assert.equal(describeChange(before, await snapshots.take()), "", "nothing is written");
    return answer;
  };

  it("posts a reply as a comment by its recipient, quote stripped, in order, with its attachments", async () => {
    const to = await replyAddress(server, DOMAIN, bob.id, topic);
    const first = await sendReply(server.smtpPort, {
      from: "bob.example@example.com",
      to,
      text: `I will bring them.${QUOTE}`,
    });
    assert.equal(first.code, 250, first.response);
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const second = await sendReply(server.smtpPort, {
      from: '"Bob" <BOB.EXAMPLE@example.com>',
      to: to.toUpperCase(),
      text: `And here are the numbers.${QUOTE}`,
      attachments: [
        { filename: "numbers.csv", content: "a,b\n1,2\n", contentType: "text/csv" },
        { filename: "../../chart.png", content: png, contentType: "image/png" },
      ],
    });
    assert.equal(second.code, 250, second.response);
    const comments = await commentsOf(topic);
    assert.deepEqual(comments.map(textOf), ["I will bring them.", "And here are the numbers."]);
    assert.deepEqual(comments.map(authorOf), ["Bob", "Bob"]);
    const files = comments[1]?.children.filter((c) => c.local === "attachment") ?? [];
    assert.deepEqual(
      files.map((file) => [file.attributes.get("fileName"), file.attributes.get("size"), file.attributes.get("type")]),
      [
        ["numbers.csv", "8", "text/csv"],
        ["chart.png", String(png.length), "image/png"],
      ],
    );
    const id = encodeURIComponent(files[1]?.attributes.get("id") ?? "");
    const download = await fetch(`${server.url}/api/fileDownload/V2?id=${id}`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), png);
  });

  it("posts a message sent again (the same Message-ID, our answer lost) once, and answers it as posted", async () => {
    const made = await server.factories.topic(group, alice, { title: "Sent twice" });
    const item: ContentRef = { kind: "BOARD", groupId: group.id, id: made.id };
    const other = await server.factories.topic(group, alice, { title: "Same message, other item" });
    const otherItem: ContentRef = { kind: "BOARD", groupId: group.id, id: other.id };
    const reply = {
      from: "bob.example@example.com",
      to: await replyAddress(server, DOMAIN, bob.id, item),
      text: `Once only.${QUOTE}`,
      messageId: "<retry-1@client.example>",
    };
    assert.equal((await sendReply(server.smtpPort, reply)).code, 250);
    const again = await sendReply(server.smtpPort, reply);
    assert.equal(again.code, 250, "a copy is answered as posted, so its server stops sending it");
    assert.deepEqual((await commentsOf(item)).map(textOf), ["Once only."]);
    const fresh = await sendReply(server.smtpPort, { ...reply, messageId: "<retry-2@client.example>" });
    assert.equal(fresh.code, 250);
    const elsewhere = { ...reply, to: await replyAddress(server, DOMAIN, bob.id, otherItem) };
    assert.equal((await sendReply(server.smtpPort, elsewhere)).code, 250);
    assert.deepEqual(
      (await commentsOf(item)).map(textOf),
      ["Once only.", "Once only."],
      "a new Message-ID is a new reply",
    );
    assert.deepEqual(
      (await commentsOf(otherItem)).map(textOf),
      ["Once only."],
      "the same one to another item is posted there",
    );
  });

  it("posts to a task, a shared file, an event (as comments) and a chat room (as a message)", async () => {
    const task = await server.factories.task(group, alice);
    const file = await addTestFile(server, group, alice);
    const eventId = await seedEvent(server, group, alice, "Offsite");
    const items: ContentRef[] = [
      { kind: "TASK", groupId: group.id, id: task.id },
      { kind: "CABINET", groupId: group.id, id: file.id },
      { kind: "GW_SCHEDULE", groupId: group.id, id: Number(/1:(\d+)$/.exec(eventId)?.[1]) },
    ];
    for (const item of items) {
      const to = await replyAddress(server, DOMAIN, bob.id, item);
      const answer = await sendReply(server.smtpPort, { from: bob.email, to, text: `On ${item.kind}.${QUOTE}` });
      assert.equal(answer.code, 250, answer.response);
      assert.deepEqual((await commentsOf(item)).map(textOf), [`On ${item.kind}.`]);
    }
    const chat = new ChatClient(server);
    const room = await chat.theme(alice, "Planning", [bob]);
    const to = await replyAddress(server, DOMAIN, bob.id, { kind: "CHAT", roomId: room });
    const answer = await sendReply(server.smtpPort, { from: bob.email, to, text: `Chat from mail.${QUOTE}` });
    assert.equal(answer.code, 250, answer.response);
    const messages = entriesOf((await chat.messages(alice, room)).xml);
    assert.equal(childText(messages[0]!, NS.atom, "summary"), "Chat from mail.");
  });

  it("reads a reply sent as HTML only, its quote (Gmail's blockquote) stripped", async () => {
    const to = await replyAddress(server, DOMAIN, bob.id, topic);
    const html =
      '<div dir="ltr">See you <b>at ten</b>.</div><br><div class="gmail_quote"><div class="gmail_attr">' +
      "On Fri, Nov 27, 2026 at 10:00 AM Kairan &lt;kairan@kairan.test&gt; wrote:<br></div>" +
      '<blockquote class="gmail_quote">Alice commented: bring the slides?</blockquote></div>';
    const answer = await sendReply(server.smtpPort, { from: bob.email, to, html });
    assert.equal(answer.code, 250, answer.response);
    assert.equal(textOf((await commentsOf(topic)).at(-1)!), "See you at ten.");
  });

  it("refuses a forged or changed address at RCPT, and any other mailbox (no relaying)", async () => {
    const to = await replyAddress(server, DOMAIN, bob.id, topic);
    const [local = "", domain = ""] = to.split("@");
    const changed = `${local.slice(0, -2)}${local.at(-2) === "a" ? "b" : "a"}${local.at(-1)}@${domain}`;
    await refused({ from: bob.email, to: changed, text: "Hi" }, 550, "RCPT TO", /not valid/);
    await refused(
      { from: bob.email, to: `${local}@elsewhere.example`, text: "Hi" },
      550,
      "RCPT TO",
      /only takes replies/,
    );
    await refused({ from: bob.email, to: `postmaster@${DOMAIN}`, text: "Hi" }, 550, "RCPT TO", /only takes replies/);
  });

  it("refuses a reply whose From is not the recipient's address: a forwarded notification posts nothing", async () => {
    const to = await replyAddress(server, DOMAIN, bob.id, topic);
    await refused({ from: alice.email, to, text: "Posing as Bob" }, 550, "DATA", /not the person/);
    await refused(
      { from: alice.email, envelopeFrom: bob.email, to, text: "Posing as Bob" },
      550,
      "DATA",
      /not the person/,
    );
  });

  it("refuses an address of an item in a group the person is not in, and a person removed after it was made", async () => {
    const carol = await server.factories.user({ email: "carol@example.com" });
    const other = await server.factories.group([carol]);
    const theirs = await server.factories.topic(other, carol);
    const foreign: ContentRef = { kind: "BOARD", groupId: other.id, id: theirs.id };
    await refused(
      { from: bob.email, to: await replyAddress(server, DOMAIN, bob.id, foreign), text: "Hi" },
      550,
      "RCPT TO",
      /no longer a member/,
    );
    const dave = await server.factories.user({ email: "dave@example.com" });
    await server.store.transaction((tx) =>
      tx.memberships.insertJoined({
        groupId: group.id,
        userId: dave.id,
        manager: false,
        notify: true,
        createdAt: server.clock.now(),
      }),
    );
    const to = await replyAddress(server, DOMAIN, dave.id, topic);
    assert.equal((await sendReply(server.smtpPort, { from: dave.email, to, text: "Still here." })).code, 250);
    await removeMember(server, { groupId: group.id, email: dave.email });
    await refused({ from: dave.email, to, text: "Gone?" }, 550, "RCPT TO", /no longer a member/);
  });

  it("refuses a reply to an item that was deleted", async () => {
    const task = await server.factories.task(group, alice);
    const ref: ContentRef = { kind: "TASK", groupId: group.id, id: task.id };
    const to = await replyAddress(server, DOMAIN, bob.id, ref);
    const actor = { user: alice, app: { id: 0, name: "test", consumerKey: "", accessLevel: "Z" } } as const;
    await trashTask(server, actor, { ref, trashed: true });
    await deleteTask(server, actor, { ref });
    await refused({ from: bob.email, to, text: "Too late" }, 550, "RCPT TO", /no longer exists/);
  });

  it("refuses an empty reply (all quote and signature) and a reply over the comment's length", async () => {
    const to = await replyAddress(server, DOMAIN, bob.id, topic);
    await refused({ from: bob.email, to, text: `${QUOTE}\n-- \nBob\n` }, 550, "DATA", /empty/);
    await refused({ from: bob.email, to, text: "x".repeat(20_001) }, 550, "DATA", /longer than 20000/);
  });

  it("refuses more files than a comment takes, and takes an automatic reply without posting it", async () => {
    const to = await replyAddress(server, DOMAIN, bob.id, topic);
    const attachments = Array.from({ length: 11 }, (_, i) => ({ filename: `f${i}.txt`, content: `file ${i}` }));
    await refused({ from: bob.email, to, text: "Files", attachments }, 550, "DATA", /more than 10 attachments/);
    const before = await snapshots.take();
    const away = await sendReply(server.smtpPort, {
      from: bob.email,
      to,
      text: "I am away.",
      headers: { "Auto-Submitted": "auto-replied" },
    });
    assert.equal(away.code, 250);
    assert.match(away.response, /Automatic reply: not posted/);
    assert.equal(describeChange(before, await snapshots.take()), "");
  });
});
