// The audit log's content: each security event and change of accounts, tokens, applications,
// groups and members leaves its row where it happens (through the web over real HTTP, the
// services the command line calls, xAuth), naming who, from where, what and on what; a failed
// action leaves only its refused row, never a done one.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { loadConfig } from "../../src/config/config.js";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { changePassword } from "../../src/services/account/account.js";
import { confirmAddressChange, requestAddressChange } from "../../src/services/account/address-change.js";
import { resetPassword, resetPasswordAsOperator } from "../../src/services/account/password-reset.js";
import { createPersonalToken, revokePersonalToken } from "../../src/services/account/personal-token.js";
import { createGroupAsOperator } from "../../src/services/account/user-admin.js";
import { listAudit } from "../../src/services/audit/audit-log.js";
import { addMember, removeMember, setManager } from "../../src/services/member/member-admin.js";
import {
  createApplicationAsOperator,
  createTokenAsOperator,
  deleteApplicationAsOperator,
  revokeTokenAsOperator,
  updateApplicationAsOperator,
} from "../../src/services/oauth/app-admin.js";
import { exchangePassword } from "../../src/services/oauth/oauth.js";
import { signInThrottled } from "../../src/services/session/sign-in.js";
import type { AuditEventRow } from "../../src/store/queries/audit-events.js";
import { describeEachBackend } from "../support/backends.js";
import { PASSWORD, type TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

const HERE = "127.0.0.1";
const THROTTLE = {
  perAccount: 3,
  perAddress: 1000,
  untrustedPerAccount: 3,
  windowMs: 15 * 60_000,
  backoffAfter: 1000,
  backoffBaseMs: 1000,
  backoffMaxMs: 60_000,
};

/** The fields a test compares: what, by whom, from where, on what, in which group. */
function summary(row: AuditEventRow | undefined) {
  assert.ok(row, "a row was written");
  return {
    action: row.action,
    outcome: row.outcome,
    actor: row.actor_label,
    actorId: row.actor_user_id === null ? null : Number(row.actor_user_id),
    address: row.address,
    target: row.target_kind === null ? null : `${row.target_kind}:${row.target_id}`,
    group: row.group_id === null ? null : Number(row.group_id),
  };
}

describeEachBackend("the audit log's events", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let aliceWeb: WebClient;
  let ctx: ReturnType<typeof contexts>;

  function contexts() {
    const config = loadConfig({ port: "0", data: server.dataDir, noDemo: true }, {});
    const base = { store: server.store, blobs: server.blobs, clock: server.clock };
    return {
      base,
      signIn: { ...base, config: { ...config, limits: { ...config.limits, loginThrottle: THROTTLE } } },
      mail: { ...base, config, baseUrl: () => server.url },
      both: {
        ...base,
        config: { ...config, limits: { ...config.limits, loginThrottle: THROTTLE } },
        baseUrl: () => server.url,
      },
    };
  }

  /** Rows written after `mark` (an id), oldest first. */
  async function rowsSince(mark: number, filter: { groupId?: number } = {}): Promise<AuditEventRow[]> {
    const rows = await listAudit(ctx.base, { limit: 500, ...filter });
    return rows.filter((row) => Number(row.id) > mark).reverse();
  }
  async function mark(): Promise<number> {
    const [newest] = await listAudit(ctx.base, { limit: 1 });
    return newest === undefined ? 0 : Number(newest.id);
  }
  const label = (user: TestUser) => `${user.name} <${user.email}>`;

  before(async () => {
    server = await startTestServer(backend);
    ctx = contexts();
    alice = await server.factories.user({ name: "Alice", email: "alice@example.com" });
    bob = await server.factories.user({ name: "Bob", email: "bob@example.com" });
    aliceWeb = new WebClient(server.url);
  });
  after(() => server.close());

  it("signing in on the web: a done row with the person and the client's address", async () => {
    const from = await mark();
    await aliceWeb.signIn(alice.email);
    const rows = await rowsSince(from);
    assert.deepEqual(rows.map(summary), [
      {
        action: "sign-in",
        outcome: "done",
        actor: label(alice),
        actorId: alice.id,
        address: HERE,
        target: `user:${alice.id}`,
        group: null,
      },
    ]);
    assert.deepEqual(JSON.parse(rows[0]!.details), { via: "web" });
  });

  it("a failed sign-in: only a refused row, naming the address typed (never the password) or the account", async () => {
    const from = await mark();
    const web = new WebClient(server.url);
    await web.get("/signin");
    await web.post("/signin", { email: "Nobody@Example.com", password: "secret-guess-1" });
    await web.get("/signin");
    await web.post("/signin", { email: bob.email, password: "secret-guess-2" });
    const rows = await rowsSince(from);
    assert.deepEqual(rows.map(summary), [
      {
        action: "sign-in.failed",
        outcome: "refused",
        actor: "nobody@example.com",
        actorId: null,
        address: HERE,
        target: null,
        group: null,
      },
      {
        action: "sign-in.failed",
        outcome: "refused",
        actor: label(bob),
        actorId: bob.id,
        address: HERE,
        target: `user:${bob.id}`,
        group: null,
      },
    ]);
    assert.deepEqual(JSON.parse(rows[0]!.details), { via: "web", reason: "unknown" });
    assert.deepEqual(JSON.parse(rows[1]!.details), { via: "web", reason: "password" });
    assert.ok(rows.every((row) => !JSON.stringify(row).includes("secret-guess")));
  });

  it("a lockout: one sign-in.locked row when the account's limit is first passed, none for the tries after", async () => {
    const carol = await server.factories.user({ name: "Carol", email: "carol@example.com" });
    const from = await mark();
    const attempt = { email: carol.email, password: "wrong", address: "192.0.2.9" };
    for (let i = 0; i < THROTTLE.untrustedPerAccount; i++)
      assert.equal(await signInThrottled(ctx.signIn, attempt), undefined);
    for (let i = 0; i < 2; i++)
      await assert.rejects(signInThrottled(ctx.signIn, attempt), { code: "SIGN_IN_THROTTLED" });
    const rows = await rowsSince(from);
    assert.deepEqual(
      rows.map((row) => [row.action, row.outcome]),
      [...Array(THROTTLE.untrustedPerAccount).fill(["sign-in.failed", "refused"]), ["sign-in.locked", "refused"]],
    );
    const locked = rows.at(-1)!;
    assert.deepEqual(summary(locked), {
      action: "sign-in.locked",
      outcome: "refused",
      actor: label(carol),
      actorId: carol.id,
      address: "192.0.2.9",
      target: `user:${carol.id}`,
      group: null,
    });
    assert.equal(JSON.parse(locked.details).scope, "untrusted");
  });

  it("xAuth: a sign-in row naming the application, in the token's transaction", async () => {
    const app = await server.factories.app("Z", "Desk client");
    const from = await mark();
    const grant = { username: alice.email, password: PASSWORD, address: "198.51.100.4" };
    const found = await server.store.read((tx) => tx.apps.findByConsumerKey(app.key));
    await exchangePassword(ctx.signIn, { app: found!, grant });
    await assert.rejects(exchangePassword(ctx.signIn, { app: found!, grant: { ...grant, password: "nope" } }));
    const rows = await rowsSince(from);
    assert.deepEqual(
      rows.map((row) => [row.action, row.outcome, row.address, JSON.parse(row.details).via]),
      [
        ["sign-in", "done", "198.51.100.4", "xauth"],
        ["sign-in.failed", "refused", "198.51.100.4", "xauth"],
      ],
    );
    assert.equal(JSON.parse(rows[0]!.details).application, "Desk client");
  });

  it("a password change: done with the sessions it ended; a wrong current password leaves only refusals", async () => {
    const dave = await server.factories.user({ name: "Dave", email: "dave@example.com" });
    const actor = { user: dave, app: { id: 0, name: "web", consumerKey: "", accessLevel: "Z" as const } };
    const from = await mark();
    const input = {
      current: "wrong",
      next: "a new password",
      repeated: "a new password",
      address: HERE,
      keepSessionId: 0,
    };
    await assert.rejects(changePassword(ctx.signIn, actor, input), { code: "CURRENT_PASSWORD_WRONG" });
    await changePassword(ctx.signIn, actor, { ...input, current: PASSWORD });
    const rows = await rowsSince(from);
    assert.deepEqual(
      rows.map((row) => [row.action, row.outcome]),
      [
        ["sign-in.failed", "refused"],
        ["password.change", "refused"],
        ["password.change", "done"],
      ],
    );
    assert.deepEqual(summary(rows[2]), {
      action: "password.change",
      outcome: "done",
      actor: label(dave),
      actorId: dave.id,
      address: HERE,
      target: `user:${dave.id}`,
      group: null,
    });
    assert.equal(JSON.parse(rows[1]!.details).code, "CURRENT_PASSWORD_WRONG");
    assert.deepEqual(JSON.parse(rows[2]!.details), { sessionsEnded: 0 });
  });

  it("a password reset: asked for (by the operator, then by anyone) and completed", async () => {
    const erin = await server.factories.user({ name: "Erin", email: "erin@example.com" });
    const from = await mark();
    const printed = await resetPasswordAsOperator(ctx.mail, { email: erin.email, print: true });
    const secret = printed.link!.split("/").at(-1)!;
    await resetPassword(ctx.mail, {
      secret,
      password: "a new password",
      repeated: "a new password",
      address: "203.0.113.5",
    });
    const rows = await rowsSince(from);
    assert.deepEqual(rows.map(summary), [
      {
        action: "password.reset.request",
        outcome: "done",
        actor: COMMAND_LINE_ACTOR.label,
        actorId: null,
        address: null,
        target: `user:${erin.id}`,
        group: null,
      },
      {
        action: "password.reset",
        outcome: "done",
        actor: label(erin),
        actorId: erin.id,
        address: "203.0.113.5",
        target: `user:${erin.id}`,
        group: null,
      },
    ]);
    assert.deepEqual(JSON.parse(rows[1]!.details), { sessionsEnded: 0, tokensRevoked: 0 });
    // A used link is refused, and writes no done row.
    const again = await mark();
    await assert.rejects(resetPassword(ctx.mail, { secret, password: "another one", repeated: "another one" }));
    assert.deepEqual(await rowsSince(again), []);
  });

  it("asking for a reset through the sign-in page's form: a row for a known address and for an unknown one alike", async () => {
    const from = await mark();
    const web = new WebClient(server.url);
    for (const email of [bob.email, "stranger@example.com"]) {
      await web.get("/password/forgot");
      await web.post("/password/forgot", { email });
    }
    const rows = await rowsSince(from);
    assert.deepEqual(
      rows.map((row) => [row.action, row.outcome, row.actor_label, row.address, row.target_id]),
      [
        ["password.reset.request", "done", bob.email, HERE, String(bob.id)],
        ["password.reset.request", "done", "stranger@example.com", HERE, null],
      ],
    );
  });

  it("an address change: the row when the link is followed, with before and after", async () => {
    const fay = await server.factories.user({ name: "Fay", email: "fay@example.com" });
    const actor = { user: fay, app: { id: 0, name: "web", consumerKey: "", accessLevel: "Z" as const } };
    await requestAddressChange(ctx.both, actor, { email: "fay@example.org", password: PASSWORD, address: HERE });
    const secret = await server.store.transaction(async (tx) => {
      // The link's secret went by mail (only its hash is kept): issue a known one the same way.
      const { issueLink } = await import("../../src/services/account/account-links.js");
      const link = {
        purpose: "address-confirm" as const,
        userId: fay.id,
        email: "fay@example.org",
        lifetimeMs: 60_000,
      };
      return (await issueLink(tx, link, server.clock.now())).secret;
    });
    const from = await mark();
    await confirmAddressChange(ctx.mail, secret, "203.0.113.6");
    const rows = await rowsSince(from);
    assert.deepEqual(rows.map(summary), [
      {
        action: "address.change",
        outcome: "done",
        actor: label(fay),
        actorId: fay.id,
        address: "203.0.113.6",
        target: `user:${fay.id}`,
        group: null,
      },
    ]);
    assert.deepEqual(JSON.parse(rows[0]!.details), { before: "fay@example.com", after: "fay@example.org" });
  });

  it("personal tokens, made and revoked on the settings page's services, and by the operator", async () => {
    const app = await server.factories.app("write", "Script");
    const actor = {
      user: alice,
      app: { id: 0, name: "web", consumerKey: "", accessLevel: "Z" as const },
      address: HERE,
    };
    const from = await mark();
    const issued = await createPersonalToken(ctx.base, actor, { appId: app.id, label: "backup job" });
    const [made] = await rowsSince(from);
    const tokenId = Number(made?.target_id);
    await revokePersonalToken(ctx.base, actor, { tokenId });
    await assert.rejects(revokePersonalToken(ctx.base, actor, { tokenId }), { code: "TOKEN_NOT_FOUND" });
    const byOperator = await createTokenAsOperator(ctx.base, { email: bob.email, consumerKey: app.key, label: "cron" });
    assert.ok("issued" in byOperator);
    const rows = await rowsSince(from);
    const operatorTokenId = Number(rows.at(-1)?.target_id);
    await revokeTokenAsOperator(ctx.base, { tokenId: operatorTokenId });
    const all = await rowsSince(from);
    assert.deepEqual(
      all.map((row) => [row.action, row.actor_label, row.address, row.target_kind, row.target_label]),
      [
        ["token.create", label(alice), HERE, "token", "backup job"],
        ["token.revoke", label(alice), HERE, "token", `token ${tokenId}`],
        ["token.create", COMMAND_LINE_ACTOR.label, null, "token", "cron"],
        ["token.revoke", COMMAND_LINE_ACTOR.label, null, "token", `token ${operatorTokenId}`],
      ],
    );
    assert.deepEqual(JSON.parse(all[0]!.details), { application: "Script", origin: "personal" });
    assert.ok(!JSON.stringify(all).includes(issued.token) && !JSON.stringify(all).includes(issued.secret));
  });

  it("applications the operator adds, changes and removes", async () => {
    const from = await mark();
    const app = await createApplicationAsOperator(ctx.base, {
      name: "Mobile",
      consumerKey: "mobile-key",
      consumerSecret: "mobile-secret",
      accessLevel: "write",
      legacySigning: false,
    });
    assert.ok(app);
    assert.equal(
      await createApplicationAsOperator(ctx.base, { ...app, consumerSecret: "x", legacySigning: false }),
      undefined,
    );
    await updateApplicationAsOperator(ctx.base, { consumerKey: "mobile-key", legacySigning: true });
    await deleteApplicationAsOperator(ctx.base, { consumerKey: "mobile-key" });
    assert.equal(await deleteApplicationAsOperator(ctx.base, { consumerKey: "mobile-key" }), false);
    const rows = await rowsSince(from);
    assert.deepEqual(
      rows.map((row) => [row.action, row.actor_label, row.target_kind, row.target_id, JSON.parse(row.details)]),
      [
        [
          "application.create",
          COMMAND_LINE_ACTOR.label,
          "application",
          String(app.id),
          { accessLevel: "write", legacySigning: false },
        ],
        [
          "application.update",
          COMMAND_LINE_ACTOR.label,
          "application",
          String(app.id),
          { legacySigning: { before: false, after: true } },
        ],
        ["application.delete", COMMAND_LINE_ACTOR.label, "application", String(app.id), {}],
      ],
    );
    assert.equal(rows[0]?.target_label, "Mobile (mobile-key)", "the target names the application and its key");
    assert.ok(!JSON.stringify(rows).includes("mobile-secret"));
  });

  it("a group made, renamed, a member invited, made a manager and removed on the web, each in the group's part", async () => {
    const from = await mark();
    const made = await aliceWeb.post("/groups/new", { name: "Audit team", summary: "first" });
    const g = made.location?.replace(/\/members$/, "") ?? "";
    const groupId = Number(/\/g\/1:(\d+)/.exec(g)?.[1]);
    await aliceWeb.get(`${g}/edit`);
    await aliceWeb.post(`${g}/edit`, { name: "Audit crew", summary: "second" });
    await aliceWeb.get(`${g}/members`);
    await aliceWeb.post(`${g}/members/invite`, { email: "guest@example.com" });
    await addMember(ctx.base, { groupId, email: bob.email, manager: false });
    const bobMember = await server.store.read((tx) => tx.memberships.findJoined(groupId, bob.id));
    await aliceWeb.get(`${g}/members`);
    await aliceWeb.post(`${g}/members/1:${bobMember!.id}/manager`, { manager: "true" });
    await aliceWeb.get(`${g}/members`);
    await aliceWeb.post(`${g}/members/1:${bobMember!.id}/remove`, {});
    const rows = await rowsSince(from);
    assert.deepEqual(
      rows.map((row) => [row.action, row.outcome, row.actor_label, row.address, row.group_id && Number(row.group_id)]),
      [
        ["group.create", "done", label(alice), HERE, groupId],
        ["group.update", "done", label(alice), HERE, groupId],
        ["member.invite", "done", label(alice), HERE, groupId],
        ["member.add", "done", COMMAND_LINE_ACTOR.label, null, groupId],
        ["member.role", "done", label(alice), HERE, groupId],
        ["member.remove", "done", label(alice), HERE, groupId],
      ],
    );
    assert.deepEqual(JSON.parse(rows[1]!.details), {
      before: { name: "Audit team", summary: "first" },
      after: { name: "Audit crew", summary: "second" },
    });
    assert.deepEqual(JSON.parse(rows[2]!.details).email, "guest@example.com");
    assert.deepEqual(JSON.parse(rows[4]!.details), { manager: { before: false, after: true } });
    assert.equal(rows[5]!.target_id, String(bobMember!.id));
  });

  it("removing the last manager is refused: a refused row, no done row, nothing changed", async () => {
    const group = await server.factories.group([alice, bob], { managers: [alice] });
    const from = await mark();
    await assert.rejects(setManager(ctx.base, { groupId: group.id, email: alice.email, value: false }));
    const aliceWebMember = await server.store.read((tx) => tx.memberships.findJoined(group.id, alice.id));
    const g = `/g/1:${group.id}`;
    await aliceWeb.get(`${g}/members`);
    const answer = await aliceWeb.post(`${g}/members/1:${aliceWebMember!.id}/manager`, { manager: "false" });
    assert.equal(answer.status, 400);
    // An ordinary member trying a manager's action is refused too.
    const bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
    await bobWeb.get(`${g}/board`);
    await bobWeb.post(`${g}/members/1:${aliceWebMember!.id}/remove`, {});
    const rows = await rowsSince(from);
    assert.deepEqual(
      rows.map((row) => [row.action, row.outcome, row.group_id && Number(row.group_id), JSON.parse(row.details).code]),
      [
        // The command line's refusal is its exit status and message; the web's is a row.
        ["member.role", "refused", group.id, "LAST_MANAGER"],
        ["sign-in", "done", null, undefined],
        ["member.remove", "refused", group.id, "MANAGER_REQUIRED"],
      ],
    );
    assert.equal(rows[0]!.actor_label, label(alice));
    assert.equal(rows[0]!.address, HERE);
    assert.equal(rows[2]!.actor_label, label(bob));
    assert.ok(await server.store.read((tx) => tx.memberships.findJoined(group.id, alice.id)).then((m) => m?.manager));
  });

  it("the operator's group, member and role changes name the command line", async () => {
    const from = await mark();
    const group = await createGroupAsOperator(ctx.base, { name: "Ops", summary: "", managerEmail: alice.email });
    await addMember(ctx.base, { groupId: group.id, email: bob.email, manager: false });
    await setManager(ctx.base, { groupId: group.id, email: bob.email, value: true });
    await removeMember(ctx.base, { groupId: group.id, email: bob.email });
    const rows = await rowsSince(from);
    assert.deepEqual(
      rows.map((row) => [row.action, row.actor_label, row.actor_user_id, row.group_id && Number(row.group_id)]),
      [
        ["group.create", COMMAND_LINE_ACTOR.label, null, group.id],
        ["member.add", COMMAND_LINE_ACTOR.label, null, group.id],
        ["member.role", COMMAND_LINE_ACTOR.label, null, group.id],
        ["member.remove", COMMAND_LINE_ACTOR.label, null, group.id],
      ],
    );
  });
});
