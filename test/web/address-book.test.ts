import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web address book", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let web: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice Aoki" });
    bob = await server.factories.user({ name: "Bob Baba" });
    await server.factories.user({ name: "Stranger Sato" });
    await server.factories.group([alice, bob], { name: "Team" });
    web = new WebClient(server.url);
    await web.signIn(alice.email);
  });
  after(() => server.close());

  it("lists the people who share a group, with a Message button for others only", async () => {
    const page = await web.get("/address-book");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "the address book");
    assert.match(page.html, /href="\/address-book" aria-current="page"/, "the site navigation links it");
    assert.match(page.html, new RegExp(`id="user-${bob.id}"`), "Bob's row is the API's link target");
    assert.match(page.html, /Alice Aoki<\/span> <span class="tag">\(you\)/);
    assert.ok(!page.html.includes("Stranger"), "someone sharing no group is not listed");
    const buttons = [...page.html.matchAll(/name="user" value="(\d+)"/g)].map((m) => Number(m[1]));
    assert.deepEqual(buttons, [bob.id], "one Message button, for Bob, none on the caller's own row");
  });

  it("finds people by part of their name, and says when nobody matches", async () => {
    const found = await web.get("/address-book?name=bob");
    assert.match(found.html, /Bob Baba/);
    assert.ok(!found.html.includes(`row-title">Alice Aoki`));
    assert.match(found.html, /value="bob"/, "the query stays in the field");
    const none = await web.get("/address-book?name=zzz");
    assert.match(none.html, /Nobody matches\./);
  });

  it("the Message button opens the direct conversation", async () => {
    const opened = await web.post("/mpChat/direct", { user: String(bob.id) });
    assert.equal(opened.status, 303);
    assert.match(opened.location ?? "", /\/mpChat\/view\?chatRoomId=1%23\d+$/);
  });
});
