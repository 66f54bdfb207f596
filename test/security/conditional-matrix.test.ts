// The authorization matrix of the feed cache's fast path: a poll that carries a tag the cache
// still keeps (If-None-Match) is answered before the handler runs, by one query that reads the
// token and the caller's view version (docs/architecture.md "The fast path of a poll"). For every
// GET operation of the matrix, a member first gets the feed kept and a 304 for its tag (so the
// fast path is the one answering); then the same tag, for the same user, must not be answered
// 304 once the token is revoked, through a token of a level below the operation's, or once the
// user has left the group. Each of those is what a fast path that skipped a check would leak.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { ACCESS_LEVELS, levelAllows } from "../../src/domain/access.js";
import { registeredEndpoints } from "../../src/http-kit/route.js";
import { addMember, removeMember } from "../../src/services/member/member-admin.js";
import { describeEachBackend } from "../support/backends.js";
import { type Answer, assertError, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type MatrixWorld, issueToken, seedMatrixWorld } from "./matrix-world.js";
import { OPERATIONS, type Operation } from "./operations.js";

/** The GET operations of the registered API endpoints, with their URLs. */
function feedOperations(world: MatrixWorld): { readonly url: string; readonly op: Operation }[] {
  const urls = registeredEndpoints(world.server.app)
    .filter((endpoint) => endpoint.url.startsWith("/api/") && endpoint.methods.includes("GET"))
    .map((endpoint) => endpoint.url);
  return urls.flatMap((url) =>
    (OPERATIONS.get(url) ?? []).filter((op) => op.method === "GET" && !op.stream).map((op) => ({ url, op })),
  );
}

describeEachBackend("authorization matrix of conditional polls (the feed cache's fast path)", (backend) => {
  let server: TestServer;
  let world: MatrixWorld;

  before(async () => {
    server = await startTestServer(backend);
    world = await seedMatrixWorld(server, "SECRET-c0d1");
  });
  after(async () => {
    await server?.close();
  });

  const poll = (url: string, token: string, tag?: string): Promise<Answer> =>
    request(url, { token, headers: tag === undefined ? {} : { "if-none-match": tag } });

  /**
   * Polls until the cache keeps the feed; returns its tag, once a conditional poll got 304 for
   * it; undefined for an answer that is not a feed (a download: never cached).
   */
  async function keptTag(url: string, token: string): Promise<string | undefined> {
    let answer = await poll(url, token);
    for (let n = 0; n < 2; n++) answer = await poll(url, token);
    assert.equal(answer.status, 200, answer.text);
    const tag = answer.headers.get("etag") ?? "";
    if (!(answer.headers.get("content-type") ?? "").startsWith("application/atom+xml")) return undefined;
    assert.equal((await poll(url, token, tag)).status, 304, `${url}: the kept feed answers a conditional poll`);
    return tag;
  }

  it("refuses a kept tag to a revoked token, a too-low level and a member who left, for every GET operation", async (t) => {
    const operations = feedOperations(world);
    assert.ok(operations.length >= 10, "the matrix lists the API's feeds");
    const groupId = world.secret.group.id;
    let kept = 0;
    // A chat room's feeds are never kept (built afresh each time) and a new group member is not in the
    // room; nor is a personal event the new member's to read.
    for (const { url: path, op } of operations.filter(
      (entry) => entry.op.scope !== "room" && entry.op.scope !== "mine",
    )) {
      await t.test(`GET ${path}: ${op.name}`, async () => {
        const user = await server.factories.user({ name: `poller of ${op.name}` });
        await addMember(server, { groupId, email: user.email, manager: false });
        const probe = await op.probe(world, true);
        const url = `${server.url}${path}${probe.query === undefined ? "" : `?${probe.query}`}`;
        const tag = await keptTag(url, user.token);
        if (tag === undefined) return;
        kept += 1;

        // Another token of the same user and level (the same cache key), revoked.
        const revoked = await issueToken(server, user, "Z");
        const [summary] = (await server.store.read((tx) => tx.tokens.list())).filter(
          (token) => token.appConsumerKey === revoked.consumer.key,
        );
        await server.store.transaction((tx) => tx.tokens.revoke(summary?.id ?? 0, server.clock.now()));
        assertError(await poll(url, revoked.token, tag), 401, "TOKEN_REJECTED");

        for (const level of ACCESS_LEVELS.filter((candidate) => !levelAllows(candidate, op.need))) {
          const low = await issueToken(server, user, level);
          assertError(await poll(url, low.token, tag), 403, "ACCESS_LEVEL_INSUFFICIENT");
        }

        await removeMember(server, { groupId, email: user.email });
        const left = await poll(url, user.token, tag);
        if (op.scope === "group") {
          assertError(left, 403, "GROUP_NOT_JOINED");
          return;
        }
        // Their own data: 304 only when what they are shown now has the same bytes.
        const fresh = await poll(url, user.token);
        assert.equal(fresh.status, 200, fresh.text);
        if (left.status === 304) assert.equal(fresh.headers.get("etag"), tag, `${op.name}: 304 for a changed feed`);
        else assert.equal(left.status, 200, left.text);
        for (const secret of world.secrets) assert.ok(!fresh.text.includes(secret), `shows "${secret}" after leaving`);
      });
    }
    assert.ok(kept >= 10, `${kept} feeds went through the fast path`);
  });
});
