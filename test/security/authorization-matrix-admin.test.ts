// The authorization matrix of the administration: every address under /admin (found in the route
// table, so a page added later joins by itself) x each method it answers x every kind of person
// who is not a site administrator: signed out (GET: the sign-in page; POST: 403), an ordinary
// member, a group's manager, an administrator whose role was removed while signed in, and an
// administrator whose account was disabled. Each is refused, learns nothing (no name or address
// of the site's accounts), and changes nothing but the `refused` rows of the audit log; the
// administrator is let in (the positive control).
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { registeredEndpoints } from "../../src/http-kit/route.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type DataSnapshot, type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type WebAnswer, WebClient } from "../support/web.js";

const SECRETS = ["Hidden Harriet", "harriet.hidden@example.com"];

describeEachBackend("authorization matrix: every /admin page and form x everyone but an administrator", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  let admin: TestUser;
  let harriet: TestUser;
  /** The group the manager manages: its /admin/groups/:group pages and forms are probed with it. */
  let groupId: number;
  const callers: { name: string; web: WebClient }[] = [];

  const signedIn = async (user: TestUser) => {
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    return web;
  };
  const setAdmin = (user: TestUser, siteAdmin: boolean) =>
    server.store.transaction((tx) => tx.users.update(user.id, { siteAdmin }));

  before(async () => {
    server = await startTestServer(backend);
    snapshots = openSnapshotter(server);
    const f = server.factories;
    admin = await f.user({ name: "Site Admin" });
    harriet = await f.user({ name: SECRETS[0], email: SECRETS[1] });
    const member = await f.user({ name: "Member" });
    const manager = await f.user({ name: "Manager" });
    const demoted = await f.user({ name: "Demoted" });
    const disabled = await f.user({ name: "Disabled" });
    groupId = (await f.group([manager, member, harriet], { managers: [manager] })).id;
    for (const user of [admin, demoted, disabled]) await setAdmin(user, true);
    callers.push({ name: "signed out", web: new WebClient(server.url) });
    callers.push({ name: "ordinary member", web: await signedIn(member) });
    callers.push({ name: "group manager", web: await signedIn(manager) });
    const demotedWeb = await signedIn(demoted);
    await demotedWeb.get("/admin");
    await setAdmin(demoted, false);
    callers.push({ name: "administrator whose role was removed", web: demotedWeb });
    const disabledWeb = await signedIn(disabled);
    await disabledWeb.get("/admin");
    await server.store.transaction((tx) => tx.users.update(disabled.id, { disabledAt: server.clock.now() }));
    callers.push({ name: "disabled administrator", web: disabledWeb });
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  /** The address with its parameters filled (`:user`, `:app`, `:group` name an account, an application and a group that exist). */
  const filled = (url: string) =>
    url
      .replace(":user", `1:${harriet.id}`)
      .replace(":app", String(harriet.consumer.id))
      .replace(":group", `1:${groupId}`);

  /** Everything but the audit log, which gains the refusals. */
  const withoutAudit = (snapshot: DataSnapshot): DataSnapshot => ({
    ...snapshot,
    tables: Object.fromEntries(Object.entries(snapshot.tables).filter(([name]) => name !== "audit_events")),
  });

  it("refuses everyone but an administrator on every /admin address, leaks nothing, changes nothing", async (t) => {
    const endpoints = registeredEndpoints(server.app).filter((e) => /^(?:\/m)?\/admin(?:\/|$)/.test(e.url));
    assert.ok(endpoints.length >= 15, `the route table lists the administration (${endpoints.length})`);
    let probes = 0;
    for (const endpoint of endpoints) {
      const path = filled(endpoint.url);
      for (const method of endpoint.methods.filter((m) => m === "GET" || m === "POST")) {
        for (const caller of callers) {
          await t.test(`${method} ${endpoint.url}: ${caller.name}`, async () => {
            const before = await snapshots.take();
            let answer: WebAnswer;
            if (method === "GET") answer = await caller.web.get(path);
            else {
              // A real form token of the caller's session (the guard, not CSRF, must refuse).
              const token = caller.name === "signed out" ? null : csrfOf((await caller.web.get("/settings")).html);
              answer = await caller.web.post(
                path,
                { confirm: "on", name: "X", email: "x@example.com", manager: "x@example.com", role: "manager" },
                { csrf: token },
              );
            }
            probes += 1;
            const signedOut = caller.name === "signed out" || caller.name === "disabled administrator";
            if (method === "GET" && signedOut) {
              assert.equal(answer.status, 303);
              assert.match(answer.location ?? "", /^(?:\/m)?\/signin\?next=/);
            } else assert.equal(answer.status, 403, answer.html.slice(0, 200));
            for (const secret of SECRETS) assert.ok(!answer.html.includes(secret), `leaks "${secret}"`);
            assert.equal(describeChange(withoutAudit(before), withoutAudit(await snapshots.take())), "");
          });
        }
      }
    }
    const rows = await server.store.read((tx) => tx.auditEvents.list({ limit: 500 }));
    assert.ok(rows.length > 0, "refused forms of signed-in people left rows");
    assert.ok(
      rows.filter((row) => row.action !== "sign-in").every((row) => row.outcome === "refused"),
      "nothing but refusals (and the callers' own sign-ins)",
    );
    t.diagnostic(`admin matrix [${backend}]: ${endpoints.length} addresses, ${probes} probes`);
  });

  it("lets the administrator in (the positive control)", async () => {
    const web = await signedIn(admin);
    for (const path of [
      "/admin",
      "/admin/users",
      `/admin/users/1:${harriet.id}`,
      "/admin/settings",
      "/admin/audit",
      "/admin/groups",
      `/admin/groups/1:${groupId}`,
      "/admin/status",
      "/admin/import",
    ]) {
      const answer = await web.get(path);
      assert.equal(answer.status, 200, path);
    }
    assert.match((await web.get("/admin/users")).html, /Hidden Harriet/);
  });
});

function csrfOf(html: string): string | null {
  return /name="_csrf" value="([^"]*)"/.exec(html)?.[1] ?? null;
}
