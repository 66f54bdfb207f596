// The authorization matrix of a group's incoming webhooks page (`/g/1:n/hooks`, desktop and phone)
// x every caller who does not manage the group: signed out, an ordinary member, a manager of
// another group, an outsider. Each is refused (a sign-in redirect or 403), sees no hook's name and
// changes nothing, whether it reads, makes or revokes; the group's manager succeeds.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Actor } from "../../src/domain/access.js";
import { formatPair } from "../../src/domain/item-id.js";
import { createHook } from "../../src/services/hook/incoming-hook.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

const SECRET_NAME = "Secret Hook Name";

describeEachBackend("authorization matrix: a group's incoming webhooks page x everyone but its managers", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  let manager: TestUser;
  let path = "";
  let hookId = "";
  const callers: { name: string; web: WebClient }[] = [];

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    manager = await f.user({ name: "Manager" });
    const member = await f.user({ name: "Member" });
    const otherManager = await f.user({ name: "Other manager" });
    const outsider = await f.user({ name: "Outsider" });
    const group = await f.group([manager, member], { managers: [manager] });
    await f.group([otherManager, outsider], { managers: [otherManager] });
    const actor: Actor = {
      user: { id: manager.id, name: manager.name, email: manager.email },
      app: { id: 0, name: "t", consumerKey: "", accessLevel: "Z" },
    };
    const ctx = { store: server.store, blobs: server.blobs, clock: server.clock };
    const made = await createHook(ctx, actor, { target: { kind: "topic", groupId: group.id }, name: SECRET_NAME });
    hookId = formatPair(made.hook.id);
    path = `/g/1:${group.id}/hooks`;
    callers.push({ name: "signed out", web: new WebClient(server.url) });
    for (const user of [member, otherManager, outsider]) {
      const web = new WebClient(server.url);
      await web.signIn(user.email);
      await web.get("/");
      callers.push({ name: user.name, web });
    }
    snapshots = openSnapshotter(server);
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  it("refuses every caller but a manager, shows nothing and changes nothing", async () => {
    const before = await snapshots.take();
    for (const { name, web } of callers) {
      for (const address of [path, `/m${path}`]) {
        const read = await web.get(address);
        assert.ok(
          read.status === 403 || (read.status >= 300 && read.status < 400),
          `${name} GET ${address}: ${read.status}`,
        );
        assert.ok(!read.html.includes(SECRET_NAME), `${name} sees the hook`);
        const writes: Record<string, string>[] = [
          { change: "add", name: "Intruder", topic: "" },
          { change: "remove", id: hookId },
        ];
        for (const fields of writes) {
          // A form token of the caller's own session, from a page they may open (none when signed out).
          const home = await web.get("/");
          const write = await web.post(address, fields, home.status === 200 ? {} : { csrf: null });
          assert.ok(write.status >= 300 && write.status !== 500, `${name} POST ${address}: ${write.status}`);
          assert.ok(!write.html.includes("/hooks/"), `${name} got an address`);
        }
      }
    }
    assert.equal(describeChange(before, await snapshots.take()), "");
    const web = new WebClient(server.url);
    await web.signIn(manager.email);
    const page = await web.get(path);
    assert.equal(page.status, 200);
    assert.match(page.html, new RegExp(SECRET_NAME));
  });
});
