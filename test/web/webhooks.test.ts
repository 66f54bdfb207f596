// The webhook pages (`/g/1:n/webhooks`, `/account/webhooks`): a group's managers add one (the
// secret shown once), see its log, disable, enable and remove it; its members and outsiders are
// refused; a person's own webhooks are theirs alone.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web: webhooks", (backend) => {
  let server: TestServer;
  let manager: TestUser;
  let member: TestUser;
  let group: Group;
  before(async () => {
    server = await startTestServer(backend);
    manager = await server.factories.user({ name: "Mia" });
    member = await server.factories.user({ name: "Ned" });
    group = await server.factories.group([manager, member], { managers: [manager] });
  });
  after(() => server.close());

  it("lets a group's managers add a webhook, see its log, disable, enable and remove it", async () => {
    const web = new WebClient(server.url);
    await web.signIn(manager.email);
    const members = await web.get(`/g/1:${group.id}/members`);
    assert.match(members.html, new RegExp(`href="/g/1:${group.id}/webhooks"`), "linked from the members page");
    const list = await web.get(`/g/1:${group.id}/webhooks`);
    assert.equal(list.status, 200);
    await assertValidHtml(list.html, "webhooks page");
    const added = await web.postPairs(`/g/1:${group.id}/webhooks`, [
      ["_csrf", web.csrf()],
      ["url", "https://example.com/hook"],
      ["events", "topic.created"],
      ["events", "comment.created"],
    ]);
    assert.equal(added.status, 200);
    await assertValidHtml(added.html, "secret page");
    const secret = /value="(whsec_[^"]+)"/.exec(added.html)?.[1];
    assert.ok(secret, "the secret is shown once");
    const [hook] = await server.store.read((tx) => tx.webhooks.list({ groupId: group.id }));
    assert.ok(hook);
    const page = await web.get(`/g/1:${group.id}/webhooks/${hook.id}`);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "webhook page");
    assert.ok(!page.html.includes(secret), "never shown again");
    assert.match(page.html, /topic\.created, comment\.created/);
    assert.equal((await web.post(`/g/1:${group.id}/webhooks/${hook.id}`, { act: "disable" })).status, 303);
    assert.notEqual((await server.store.read((tx) => tx.webhooks.find(hook.id)))?.disabled_at, null);
    assert.equal((await web.post(`/g/1:${group.id}/webhooks/${hook.id}`, { act: "enable" })).status, 303);
    assert.equal((await server.store.read((tx) => tx.webhooks.find(hook.id)))?.disabled_at, null);
    const bad = await web.postPairs(`/g/1:${group.id}/webhooks`, [
      ["_csrf", web.csrf()],
      ["url", "ftp://example.com/"],
    ]);
    assert.equal(bad.status, 400);
    assert.equal((await web.post(`/g/1:${group.id}/webhooks/${hook.id}`, { act: "remove" })).status, 303);
    assert.equal(await server.store.read((tx) => tx.webhooks.find(hook.id)), undefined);
  });

  it("refuses a member who does not manage the group, and keeps a person's webhooks to that person", async () => {
    const owner = new WebClient(server.url);
    await owner.signIn(member.email);
    assert.equal((await owner.get(`/g/1:${group.id}/webhooks`)).status, 403);
    const refused = await owner.postPairs(`/g/1:${group.id}/webhooks`, [
      ["_csrf", owner.csrf()],
      ["url", "https://example.com/"],
    ]);
    assert.equal(refused.status, 403);
    const account = await owner.get("/account");
    assert.match(account.html, /href="\/account\/webhooks"/, "linked from the account page");
    const mine = await owner.get("/account/webhooks");
    assert.equal(mine.status, 200);
    await assertValidHtml(mine.html, "own webhooks");
    assert.equal(
      (
        await owner.postPairs("/account/webhooks", [
          ["_csrf", owner.csrf()],
          ["url", "https://example.com/me"],
        ])
      ).status,
      200,
    );
    const [own] = await server.store.read((tx) => tx.webhooks.list({ ownerId: member.id }));
    assert.ok(own);
    assert.equal((await owner.get(`/account/webhooks/${own.id}`)).status, 200);
    const other = new WebClient(server.url);
    await other.signIn(manager.email);
    assert.equal((await other.get(`/account/webhooks/${own.id}`)).status, 404);
    assert.equal((await other.post(`/account/webhooks/${own.id}`, { act: "remove" })).status, 404);
  });
});
