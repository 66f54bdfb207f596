// The authorization matrix of a person's own data: downloading it (`GET /account/export`) and
// deleting the account (`POST /account/delete`), desktop and phone addresses, x every kind of
// caller who is not the signed-in holder: signed out, a session whose account an administrator
// disabled, a session whose account was deleted, and a signed-in person holding the target's
// password (the form names no account: only the session's own is ever touched). Each is refused
// or acts on nothing but their own, learns nothing of the target and changes nothing of theirs.
// The same callers answering a time zone offer or marking a group read are refused alike.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { PASSWORD, type TestUser } from "../support/factories.js";
import { type DataSnapshot, type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

const SECRETS = ["Target Tamsin", "tamsin.target@example.com", "Tamsin's secret topic"];
const ADDRESSES = ["/account/export", "/m/account/export", "/account/delete", "/m/account/delete"];

describeEachBackend("authorization matrix: one's own data and account x everyone but its holder", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  let target: TestUser;
  let groupId = 0;
  const callers: { name: string; web: WebClient }[] = [];

  const signedIn = async (user: TestUser) => {
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    await web.get("/account");
    return web;
  };

  before(async () => {
    server = await startTestServer(backend);
    snapshots = openSnapshotter(server);
    const f = server.factories;
    target = await f.user({ name: SECRETS[0], email: SECRETS[1] });
    const disabled = await f.user({ name: "Disabled" });
    const deleted = await f.user({ name: "Deleted" });
    const group = await f.group([target, disabled, deleted]);
    groupId = group.id;
    await f.topic(group, target, { title: SECRETS[2] });
    callers.push({ name: "signed out", web: new WebClient(server.url) });
    const disabledWeb = await signedIn(disabled);
    await server.store.transaction((tx) => tx.users.update(disabled.id, { disabledAt: server.clock.now() }));
    callers.push({ name: "account disabled while signed in", web: disabledWeb });
    const deletedWeb = await signedIn(deleted);
    // The same account deleted from another browser: this session ended with it.
    const other = await signedIn(deleted);
    assert.equal((await other.post("/account/delete", { current: PASSWORD })).status, 303);
    callers.push({ name: "account deleted meanwhile", web: deletedWeb });
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  /** Everything but the audit log, which gains the refusals. */
  const withoutAudit = (snapshot: DataSnapshot): DataSnapshot => ({
    ...snapshot,
    tables: Object.fromEntries(Object.entries(snapshot.tables).filter(([name]) => name !== "audit_events")),
  });

  it("refuses every caller who is not signed in as a live account, leaks nothing, changes nothing", async (t) => {
    for (const address of ADDRESSES)
      for (const caller of callers)
        await t.test(`${address}: ${caller.name}`, async () => {
          const before = await snapshots.take();
          const answer = address.endsWith("/export")
            ? await caller.web.get(address)
            : await caller.web.post(address, { current: PASSWORD }, { csrf: null });
          if (address.endsWith("/export")) {
            assert.equal(answer.status, 303);
            assert.match(answer.location ?? "", /^(?:\/m)?\/signin\?next=/);
          } else assert.ok([303, 403].includes(answer.status), `${answer.status}`);
          assert.notEqual(answer.headers.get("content-type"), "application/zip");
          for (const secret of SECRETS) assert.ok(!answer.html.includes(secret), `leaks "${secret}"`);
          assert.equal(describeChange(withoutAudit(before), withoutAudit(await snapshots.take())), "");
        });
  });

  it("lets none of them answer a time zone offer or mark a group read (issue #31)", async (t) => {
    const fields = { decision: "switch", timeZone: "Asia/Tokyo", next: "/", back: "board" };
    for (const address of ["/account/zone-offer", "/m/account/zone-offer", `/g/1:${groupId}/read-all`])
      for (const caller of callers)
        await t.test(`${address}: ${caller.name}`, async () => {
          const before = await snapshots.take();
          const answer = await caller.web.post(address, fields, { csrf: null });
          assert.equal(answer.status, 403);
          for (const secret of SECRETS) assert.ok(!answer.html.includes(secret), `leaks "${secret}"`);
          assert.equal(describeChange(withoutAudit(before), withoutAudit(await snapshots.take())), "");
        });
  });

  it("lets a signed-in person reach only their own: the target's password deletes the caller, not the target", async () => {
    const caller = await server.factories.user({ name: "Caller Cato" });
    const web = await signedIn(caller);
    const download = await fetch(`${server.url}/account/export`, {
      headers: { cookie: `kairan_session=${web.cookie("kairan_session") ?? ""}` },
    });
    // Its own data (what is and is not in it: test/web/my-data.test.ts).
    assert.equal(download.status, 200);
    assert.equal(download.headers.get("content-type"), "application/zip");
    await download.arrayBuffer();
    await web.get("/account");
    assert.equal((await web.post("/account/delete", { current: PASSWORD, user: `1:${target.id}` })).status, 303);
    assert.equal((await server.store.read((tx) => tx.users.findById(target.id)))?.name, SECRETS[0]);
    assert.notEqual((await server.store.read((tx) => tx.users.findById(caller.id)))?.name, "Caller Cato");
  });
});
