import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { ChatClient, chatField, roomId, roomNumberOf } from "../support/chat.js";
import type { TestUser } from "../support/factories.js";
import { atomText, entriesOf } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("chat notifications (/api/notification/V2?category=M_CHAT)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let chat: ChatClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    carol = await server.factories.user({ name: "Carol" });
    await server.factories.group([alice, bob, carol], { name: "Team" });
    chat = new ChatClient(server);
  });
  after(() => server.close());

  const authorName = (entry: ReturnType<typeof entriesOf>[number]) =>
    entry.children.find((c) => c.local === "author")?.children.find((c) => c.local === "name")?.text;

  it("keeps one notification per member and room, with the latest message and the unconfirmed count", async () => {
    const room = await chat.theme(alice, "Daily", [bob, carol]);
    assert.equal(entriesOf((await chat.notifications(bob)).xml).length, 0, "creating a room notifies no one");
    await chat.say(alice, room, "first");
    server.clock.advance(1000);
    await chat.say(carol, room, "second");
    const entries = entriesOf((await chat.notifications(bob, "&unconfirmed=true")).xml);
    assert.equal(entries.length, 1);
    const [entry] = entries;
    assert.equal(atomText(entry!, "id"), roomId(bob, room));
    assert.equal(atomText(entry!, "title"), "Daily");
    assert.equal(atomText(entry!, "summary"), "second");
    assert.equal(authorName(entry!), "Carol");
    assert.equal(chatField(entry!, "cbl", "unconfirmedCommentCount"), "2");
    assert.equal(chatField(entry!, "cbl", "confirmed"), "false");
    const carols = entriesOf((await chat.notifications(carol)).xml);
    assert.equal(
      chatField(carols[0]!, "cbl", "unconfirmedCommentCount"),
      "1",
      "the author's own message is not unread",
    );
  });

  it("answers the confirming POST with exactly one entry per requested room, twice in a row", async () => {
    const room = await chat.theme(alice, "Bot room", [bob]);
    await chat.say(alice, room, "ping");
    for (const round of [1, 2]) {
      const answer = await chat.notifications(bob, "", [room, room]);
      assert.equal(answer.status, 200, answer.text);
      const entries = entriesOf(answer.xml);
      assert.equal(entries.length, 1, `round ${round}: exactly one entry`);
      assert.equal(atomText(entries[0]!, "summary"), "ping");
      assert.equal(authorName(entries[0]!), "Alice");
      assert.equal(chatField(entries[0]!, "cbl", "confirmed"), "true");
      assert.equal(chatField(entries[0]!, "cbl", "unconfirmedCommentCount"), "0");
    }
    const empty = await chat.theme(alice, "Quiet", [bob]);
    const quiet = entriesOf((await chat.notifications(bob, "", [empty])).xml);
    assert.equal(quiet.length, 1, "a room without messages is answered too");
    assert.equal(atomText(quiet[0]!, "summary"), "");
    assert.match((await chat.notifications(bob, "", [empty])).text, /<summary type="text"><\/summary>/);
    const unread = entriesOf((await chat.notifications(bob, "&unconfirmed=true")).xml).map(roomNumberOf);
    assert.ok(!unread.includes(room));
  });

  it("respects mute: a muted room no longer notifies that member, others as before", async () => {
    const room = await chat.theme(alice, "Noisy", [bob, carol]);
    const mute = await chat.writeRoom(
      carol,
      "update_setting",
      `<id>${roomId(carol, room)}</id><cblChat:muted>true</cblChat:muted>`,
    );
    assert.equal(mute.status, 200, mute.text);
    assert.equal(chatField(entriesOf(mute.xml)[0]!, "cblChat", "muted"), "true");
    await chat.say(alice, room, "anyone?");
    const carols = entriesOf((await chat.notifications(carol, "&unconfirmed=true")).xml).map(roomNumberOf);
    assert.ok(!carols.includes(room), "muted: no unconfirmed notification");
    const bobs = entriesOf((await chat.notifications(bob, "&unconfirmed=true")).xml).map(roomNumberOf);
    assert.ok(bobs.includes(room));
    const messages = entriesOf((await chat.messages(carol, room)).xml);
    assert.equal(messages.length, 1, "the messages are kept");
  });
});
