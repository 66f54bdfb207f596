import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/store.js";
import { TEST_DATABASE_URL, type TestSchema, createTestSchema } from "../support/backends.js";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { TestClock } from "../support/clock.js";
import { Factories, type TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, atomText, entriesOf, request } from "../support/http.js";
import { assertProblem, oauth1a } from "../support/oauth.js";
import { CHAT_NS } from "../support/chat.js";
import { openSse } from "../support/sse.js";
import { WebClient } from "../support/web.js";

// Two `kairan serve` processes over one PostgreSQL database: what one writes the other sees, a
// lease taken through one holds off the other, and comment numbers stay unique across both.
// Both run with one --public-url, as behind a proxy, so a request signed once is valid on either.

const PUBLIC_URL = "http://kairan.test";
const skip = TEST_DATABASE_URL ? false : "needs PostgreSQL: set KAIRAN_TEST_DATABASE_URL";

/** `it`, skipped with the reason when there is no PostgreSQL (counted as skipped, never silently green). */
// node:test awaits its tests itself: the promise `it` returns is the runner's, not ours to hold.
const pgIt = (name: string, fn: () => Promise<void>): void => void it(name, { skip }, fn);

/** The schema named the operator's way, `?search_path=NAME` (the in-test store uses pg's `options=`). */
function serverUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL ?? "");
  url.searchParams.set("search_path", name);
  return url.toString();
}

// engines: postgres only, because two server processes share one database only on PostgreSQL (a
// SQLite file has one writing process); skipped with its reason when PostgreSQL is absent.
describe("two server processes over one PostgreSQL", () => {
  let schema: TestSchema;
  let store: Store;
  let servers: ServerProcess[] = [];
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let clock: TestClock;
  const post = (server: ServerProcess, body: string, token: string) =>
    request(`${server.url}/api/board/V2`, { body, token });
  const topicXml = (id: string, extra: string) => `<feed ${CLIENT_NS}>${extra}<entry><id>${id}</id></entry></feed>`;

  before(async () => {
    if (skip) return;
    schema = await createTestSchema();
    // Both start (and migrate) at once: the migration lock must make that safe.
    servers = await Promise.all(
      [0, 1].map(() =>
        startServerProcess([
          "--port",
          "0",
          "--database",
          serverUrl(schema.name),
          "--no-demo",
          "--log-level",
          "warn",
          "--public-url",
          PUBLIC_URL,
        ]),
      ),
    );
    store = await openStore({ kind: "postgres", url: schema.url });
    clock = new TestClock(Date.now());
    const f = new Factories(store, clock);
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    group = await f.group([alice, bob]);
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await store?.close();
    await schema?.drop();
  });

  pgIt("reads through one what was written through the other", async () => {
    const [one, two] = servers as [ServerProcess, ServerProcess];
    const created = await post(
      one,
      `<feed ${CLIENT_NS}><entry><cbl:group id="1:${group.id}"/><title>from one</title></entry></feed>`,
      alice.token,
    );
    assert.equal(created.status, 200, created.text);
    const id = atomText(entriesOf(created.xml)[0]!, "id")!;
    const read = await request(`${two.url}/api/board/V2?entry=${id}`, { token: bob.token });
    assert.equal(read.status, 200, read.text);
    assert.equal(atomText(entriesOf(read.xml)[0]!, "title"), "from one");
  });

  pgIt("holds off an update on one with a lease taken on the other (409)", async () => {
    const [one, two] = servers as [ServerProcess, ServerProcess];
    const topic = await store.transaction((tx) =>
      tx.topics.insert({
        groupId: group.id,
        title: "leased",
        body: "",
        authorId: alice.id,
        folderId: null,
        allowEdit: true,
        fastNotify: false,
        trashed: false,
        at: Date.now(),
      }),
    );
    const id = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    assert.equal((await post(one, topicXml(id, `<cbl:operation type="lock"/>`), alice.token)).status, 200);
    const update = topicXml(id, `<cbl:operation type="update"/>`).replace("</id>", "</id><title>by bob</title>");
    assertError(await post(two, update, bob.token), 409, "TOPIC_BEING_EDITED");
    assert.equal((await store.read((tx) => tx.topics.findById(topic.id)))?.title, "leased");
  });

  pgIt("gives 50 concurrent comments spread over both processes 50 distinct numbers", async () => {
    const topic = await store.transaction((tx) =>
      tx.topics.insert({
        groupId: group.id,
        title: "busy",
        body: "",
        authorId: alice.id,
        folderId: null,
        allowEdit: false,
        fastNotify: false,
        trashed: false,
        at: Date.now(),
      }),
    );
    const id = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    const comment = (n: number) =>
      `<feed xmlns="http://www.w3.org/2005/Atom"><id>${id}</id><entry><summary type="text">${n}</summary></entry></feed>`;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) => post(servers[n % 2]!, comment(n), n % 3 === 0 ? alice.token : bob.token)),
    );
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);
    const ref = { kind: "BOARD" as const, groupId: group.id, id: topic.id };
    const numbers = (await store.read((tx) => tx.comments.listAll([ref]))).map((c) => c.number).sort((a, b) => a - b);
    assert.deepEqual(
      numbers,
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
  });

  pgIt("refuses on one a nonce already used on the other (nonce_used)", async () => {
    const [one, two] = servers as [ServerProcess, ServerProcess];
    const path = `/api/board/V2?group=1:${group.id}`;
    const client = oauth1a(alice.consumer, clock);
    const signed = client.authorize(
      { url: `${PUBLIC_URL}${path}`, method: "GET" },
      { key: alice.token, secret: alice.tokenSecret },
    );
    const headers = { Authorization: client.toHeader(signed).Authorization };
    assert.equal((await request(`${one.url}${path}`, { headers })).status, 200);
    assertProblem(await request(`${two.url}${path}`, { headers }), "nonce_used");
  });

  pgIt("serves a web session started on one process on the other, forms included", async () => {
    const [one, two] = servers as [ServerProcess, ServerProcess];
    const onOne = new WebClient(one.url);
    await onOne.signIn(alice.email);
    const cookie = onOne.cookie("kairan_session")!;
    const settings = await fetch(`${two.url}/settings`, {
      headers: { cookie: `kairan_session=${cookie}`, "accept-language": "en" },
    });
    assert.equal(settings.status, 200);
    const html = await settings.text();
    assert.match(html, /Signed in as Alice/);
    const csrf = /name="_csrf" value="([^"]*)"/.exec(html)?.[1] ?? "";
    const signOut = await fetch(`${two.url}/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: `kairan_session=${cookie}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    assert.equal(signOut.status, 303, "a form of a page from one is accepted by the other");
    assert.equal((await onOne.get("/settings")).status, 303, "signed out on both");
  });

  pgIt("delivers a chat message pushed through one process to a stream held by the other", async () => {
    const [one, two] = servers as [ServerProcess, ServerProcess];
    const created = await request(`${one.url}/api/mpChat/V2`, {
      token: alice.token,
      body: `<feed ${CHAT_NS}><cbl:operation type="insert"/><entry><title>Across</title><cbl:who id="1:${bob.id}"/></entry></feed>`,
    });
    assert.equal(created.status, 200, created.text);
    const room = /MP_CHAT,1:(\d+)</.exec(created.text)?.[1];
    assert.ok(room, "the new room's id");
    const stream = await openSse(`${two.url}/api/stream/V2`, { authorization: `Bearer ${bob.token}` });
    try {
      assert.equal(stream.status, 200);
      const pushed = await request(`${one.url}/api/comet/mpChatPush/V2`, {
        token: alice.token,
        body: `<feed ${CHAT_NS}><cbl:operation type="insert"/><id>MYPAGE,1:${alice.id},MP_CHAT,1:${room}</id><entry><summary type="text">across processes</summary></entry></feed>`,
      });
      assert.equal(pushed.status, 200, pushed.text);
      const [event] = await stream.waitFor((e) => e.event === "chat", 1, 15_000);
      assert.match(event!.data, /across processes/);
      assert.match(
        event!.data,
        new RegExp(`MYPAGE,1:${bob.id},MP_CHAT,1:${room},COMMENT,1<`),
        "written from Bob's side",
      );
    } finally {
      stream.close();
    }
  });
});
