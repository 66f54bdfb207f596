// The authorization matrix of the webhook pages: every page and form of a group's webhooks and of
// a person's own x every kind of caller. Only the group's managers reach a group's webhooks and
// only its owner a person's own; everyone else is refused (signed out: sent to sign in, or 403 for
// a form), learns neither the address nor the log, and changes nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { addWebhook } from "../../src/services/webhook/webhooks.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

const SECRET_URL = "https://hooks.example/SECRET-9c1d";
const OWN_URL = "https://hooks.example/OWN-5e2b";

describeEachBackend("authorization matrix: webhook pages x callers", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  let manager: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let group: Group;
  let groupHook: number;
  let ownHook: number;

  before(async () => {
    server = await startTestServer(backend);
    snapshots = openSnapshotter(server);
    manager = await server.factories.user({ name: "Manager" });
    member = await server.factories.user({ name: "Member" });
    outsider = await server.factories.user({ name: "Outsider" });
    group = await server.factories.group([manager, member], { managers: [manager] });
    await server.factories.group([outsider], { managers: [outsider] });
    const ctx = { store: server.store, blobs: server.blobs, clock: server.clock };
    const actor = (user: TestUser) => ({
      actor: { user, app: { id: 0, name: "t", consumerKey: "", accessLevel: "Z" as const } },
    });
    groupHook = (await addWebhook(ctx, actor(manager), { groupId: group.id, url: SECRET_URL })).webhook.id;
    ownHook = (await addWebhook(ctx, actor(manager), { groupId: null, url: OWN_URL })).webhook.id;
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  it("refuses every caller but the manager (group) and the owner (own), leaking and changing nothing", async (t) => {
    const g = `/g/1:${group.id}/webhooks`;
    const pages = [
      { path: g, secret: SECRET_URL },
      { path: `${g}/${groupHook}`, secret: SECRET_URL },
      { path: `/account/webhooks/${ownHook}`, secret: OWN_URL },
    ];
    const forms = [
      { path: g, pairs: [["url", "https://hooks.example/new"]] },
      { path: `${g}/${groupHook}`, pairs: [["act", "remove"]] },
      { path: `${g}/${groupHook}`, pairs: [["act", "disable"]] },
      {
        path: `${g}/${groupHook}`,
        pairs: [
          ["act", "redeliver"],
          ["delivery", "1"],
        ],
      },
      { path: `/account/webhooks/${ownHook}`, pairs: [["act", "remove"]] },
      { path: `/account/webhooks/${ownHook}`, pairs: [["act", "disable"]] },
    ];
    const callers: { name: string; email?: string }[] = [
      { name: "signed out" },
      { name: "member, not manager", email: member.email },
      { name: "manager of another group", email: outsider.email },
    ];
    for (const caller of callers) {
      const web = new WebClient(server.url);
      if (caller.email !== undefined) await web.signIn(caller.email);
      for (const page of pages) {
        await t.test(`${caller.name}: GET ${page.path}`, async () => {
          const answer = await web.get(page.path);
          assert.ok([303, 403, 404].includes(answer.status), `got ${answer.status}`);
          assert.ok(!answer.html.includes(page.secret), "leaks the address");
        });
      }
      for (const form of forms) {
        await t.test(`${caller.name}: POST ${form.path} ${form.pairs[0]?.join("=")}`, async () => {
          const before = await snapshots.take();
          const csrf = caller.email === undefined ? "x" : web.csrf();
          const answer = await web.postPairs(form.path, [["_csrf", csrf], ...(form.pairs as [string, string][])]);
          assert.ok([403, 404].includes(answer.status), `got ${answer.status}`);
          assert.equal(describeChange(before, await snapshots.take()), "");
        });
      }
    }
    // The positive controls.
    const own = new WebClient(server.url);
    await own.signIn(manager.email);
    for (const page of pages) assert.equal((await own.get(page.path)).status, 200, page.path);
  });
});
