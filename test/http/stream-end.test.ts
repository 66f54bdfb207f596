// A live stream ends with its credential: a revoked token, a disabled account, a web session that
// signed out or was ended by a password change. A member removed from a group keeps the stream but
// hears nothing more of that group. On PostgreSQL each case runs again with the stream held by a
// second `kairan serve` process over the same database, the ending action and the writes going
// through the first.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { removeMember } from "../../src/services/member/member-admin.js";
import { describeEachBackend } from "../support/backends.js";
import { type ServerProcess, runKairanAsync, startServerProcess } from "../support/cli.js";
import type { TestUser } from "../support/factories.js";
import { BoardClient } from "../support/notifications.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SseClient, type SseEvent, openSse } from "../support/sse.js";
import { WebClient } from "../support/web.js";

describeEachBackend("a live stream ends with its credential", (backend) => {
  let server: TestServer;
  let second: ServerProcess | undefined;
  let alice: TestUser;
  let board: BoardClient;
  const streams: SseClient[] = [];

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    board = new BoardClient(server);
    if (backend === "postgres") {
      // The second process runs on the real clock: sessions and logged events must be of its time.
      server.clock.advance(Date.now() - server.clock.now());
      const database = server.storeConfig.kind === "postgres" ? server.storeConfig.url : "";
      second = await startServerProcess(["--port", "0", "--database", database, "--no-demo", "--log-level", "warn"]);
    }
  });
  after(async () => {
    for (const opened of streams) opened.close();
    await second?.stop();
    await server.close();
  });

  /** A member of a new group with Alice, and the group. */
  const member = async (name: string): Promise<{ user: TestUser; group: Group }> => {
    const user = await server.factories.user({ name });
    return { user, group: await server.factories.group([alice, user], { name: `${name}'s group` }) };
  };
  const open = async (base: string, headers: Record<string, string>) => {
    const live = await openSse(`${base}/api/stream/V2`, headers);
    streams.push(live);
    assert.equal(live.status, 200);
    return live;
  };
  const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  const about = (id: string) => (event: SseEvent) => event.data.includes(`<id>${id}</id>`);
  /** Proves the stream delivers (it was open before the ending action): a topic arrives. */
  const delivering = async (live: SseClient, group: Group) => {
    const topic = await board.create(alice, group.id, "Before");
    await live.waitFor(about(topic));
    return live.events.length;
  };
  /** After the ending action: a new topic never arrives; the stream's last event says why, then it ends. */
  const endsWithoutIt = async (live: SseClient, group: Group, seen: number) => {
    const topic = await board.create(alice, group.id, "After the end");
    const [end] = await live.waitFor((event) => event.event === "end");
    assert.equal(end!.data, "credential-ended");
    await live.ended;
    assert.equal(live.events.filter(about(topic)).length, 0, "nothing written after the end arrives");
    assert.deepEqual(
      live.events.slice(seen).map((event) => event.event),
      ["end"],
    );
  };
  const signedIn = async (user: TestUser) => {
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    return web;
  };
  const sessionOf = (web: WebClient) => ({ cookie: `kairan_session=${web.cookie("kairan_session")}` });

  const cases = (where: () => string) => {
    it("revoking the token (settings page) ends its stream, and only its stream", async () => {
      const { user, group } = await member("Rita");
      const web = await signedIn(user);
      const live = await open(where(), bearer(user));
      const other = await open(where(), sessionOf(web));
      const seen = await delivering(live, group);
      const [token] = await server.store.read((tx) => tx.tokens.listLiveOfUser(user.id));
      await web.get("/settings");
      assert.equal((await web.post(`/settings/tokens/${token!.id}/revoke`)).status, 303);
      await endsWithoutIt(live, group, seen);
      const later = await board.create(alice, group.id, "For the session's stream");
      await other.waitFor(about(later));
      assert.equal(other.events.filter((event) => event.event === "end").length, 0, "the web session's stream stays");
    });

    it("disabling the account (kairan user disable) ends its streams", async () => {
      const { user, group } = await member("Dora");
      const live = await open(where(), bearer(user));
      const seen = await delivering(live, group);
      const place =
        server.storeConfig.kind === "postgres" ? ["--database", server.storeConfig.url] : ["--data", server.dataDir];
      const disabled = await runKairanAsync(["user", "disable", user.email, ...place, "--log-level", "silent"]);
      assert.equal(disabled.status, 0, disabled.stderr);
      await endsWithoutIt(live, group, seen);
    });

    it("signing out ends the session's stream", async () => {
      const { user, group } = await member("Sven");
      const web = await signedIn(user);
      const live = await open(where(), sessionOf(web));
      const seen = await delivering(live, group);
      await web.get("/settings");
      assert.equal((await web.post("/signout")).status, 303);
      await endsWithoutIt(live, group, seen);
    });

    it("a password change ends the streams of the user's other sessions", async () => {
      const { user, group } = await member("Paula");
      const elsewhere = await signedIn(user);
      const here = await signedIn(user);
      const live = await open(where(), sessionOf(elsewhere));
      const kept = await open(where(), sessionOf(here));
      const seen = await delivering(live, group);
      await here.get("/account");
      const fields = { current: "password", password: "fresh-secret", repeat: "fresh-secret" };
      assert.equal((await here.post("/account/password", fields)).status, 303);
      await endsWithoutIt(live, group, seen);
      const later = await board.create(alice, group.id, "For this session");
      await kept.waitFor(about(later));
    });

    it("removal from a group stops that group's events; the stream stays open for the others", async () => {
      const { user, group } = await member("Gus");
      const stays = await server.factories.group([alice, user], { name: "Gus stays" });
      const live = await open(where(), bearer(user));
      const seen = await delivering(live, group);
      const ctx = { store: server.store, blobs: server.blobs, clock: server.clock };
      await removeMember(ctx, { groupId: group.id, email: user.email });
      const gone = await board.create(alice, group.id, "After the removal");
      const still = await board.create(alice, stays.id, "Still a member here");
      await live.waitFor(about(still));
      assert.equal(live.events.filter(about(gone)).length, 0);
      assert.deepEqual(
        live.events.slice(seen).map((event) => event.event),
        ["notification"],
        "only the other group's topic",
      );
    });
  };

  describe("stream and ending action on one server", () => {
    cases(() => server.url);

    it("ends a quiet stream too, with no write after the ending (the hub's 5-second poll)", async () => {
      const { user } = await member("Quinn");
      const web = await signedIn(user);
      const live = await open(server.url, sessionOf(web));
      await web.get("/settings");
      assert.equal((await web.post("/signout")).status, 303);
      const [end] = await live.waitFor((event) => event.event === "end", 1, 15_000);
      assert.equal(end!.data, "credential-ended");
      await live.ended;
    });
  });
  describe(
    "stream held by a second server process over the same PostgreSQL database",
    { skip: backend !== "postgres" ? "PostgreSQL only: two server processes share one database" : false },
    () => cases(() => second?.url ?? ""),
  );
});
