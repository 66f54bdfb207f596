import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { assertError, atomText, entriesOf, request } from "../support/http.js";
import { assertValidAtom } from "../support/atom-schema.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("address book (/api/mpAddress/V2) and icons (/api/icon/V2)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let stranger: TestUser;
  let team: Group;
  const book = (user: TestUser, query = "") =>
    request(`${server.url}/api/mpAddress/V2${query === "" ? "" : `?${query}`}`, { token: user.token });
  const icon = (user: TestUser, query: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/icon/V2?${query}`, { headers: { authorization: `Bearer ${user.token}`, ...headers } });

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice Able" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    stranger = await f.user({ name: "Stranger" });
    team = await f.group([alice, bob, carol], { name: "Team" });
    await f.group([stranger], { name: "Elsewhere" });
    await server.store.transaction(async (tx) => {
      await tx.users.update(carol.id, { familyKana: "あ", givenKana: "か" });
    });
  });
  after(() => server.close());

  it("lists the people who share a group, the caller included, readings first", async () => {
    const answer = await book(alice);
    assert.equal(answer.status, 200);
    await assertValidAtom(answer.text);
    const entries = entriesOf(answer.xml);
    assert.deepEqual(
      entries.map((entry) => atomText(entry, "title")),
      ["Carol", "Alice Able", "Bob"],
    );
    const carolEntry = answer.text.slice(answer.text.indexOf(`<id>1:${carol.id}</id>`));
    assert.ok(carolEntry.includes(`<cbl:who valueString="Carol" id="1:${carol.id}"/>`));
    assert.ok(
      carolEntry.includes("<cblPrfl:familyKana>あ</cblPrfl:familyKana><cblPrfl:givenKana>か</cblPrfl:givenKana>"),
    );
    assert.ok(answer.text.includes(`<email>${bob.email}</email>`));
    assert.ok(!answer.text.includes("Stranger"));
  });

  it("filters by part of a name or reading, and pages", async () => {
    const byName = entriesOf((await book(alice, "name=ABL")).xml).map((entry) => atomText(entry, "title"));
    assert.deepEqual(byName, ["Alice Able"]);
    const byReading = entriesOf((await book(alice, "name=%E3%81%8B")).xml).map((entry) => atomText(entry, "title"));
    assert.deepEqual(byReading, ["Carol"]);
    const second = entriesOf((await book(alice, "start-index=1&max-results=1")).xml);
    assert.deepEqual(
      second.map((entry) => atomText(entry, "title")),
      ["Alice Able"],
    );
    assertError(await book(alice, "max-results=0"), 400, "INVALID_MAX_RESULTS");
  });

  it("serves a generated PNG with an ETag, 304 on If-None-Match, private caching", async () => {
    const first = await icon(alice, `type=user&user=1:${bob.id}`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("content-type"), "image/png");
    assert.equal(first.headers.get("cache-control"), "private, max-age=3600");
    const bytes = Buffer.from(await first.arrayBuffer());
    assert.deepEqual([...bytes.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(""), "PNG");
    const etag = first.headers.get("etag") ?? "";
    assert.match(etag, /^".+"$/);
    const again = await icon(carol, `type=user&user=1:${bob.id}`);
    assert.deepEqual(Buffer.from(await again.arrayBuffer()), bytes, "deterministic");
    const cached = await icon(alice, `type=user&user=1:${bob.id}`, { "if-none-match": etag });
    assert.equal(cached.status, 304);
    const group = await icon(alice, `type=group&group=1:${team.id}`);
    assert.equal(group.status, 200);
    assert.equal(group.headers.get("content-type"), "image/png");
  });

  it("serves the uploaded picture when there is one", async () => {
    const png = Buffer.from(await (await icon(alice, `type=group&group=1:${team.id}`)).arrayBuffer());
    await server.store.transaction((tx) =>
      tx.userPictures.put(bob.id, { mediaType: "image/png", bytes: png, etag: "uploaded-1", updatedAt: 1 }),
    );
    const answer = await icon(alice, `type=user&user=1:${bob.id}`);
    assert.equal(answer.headers.get("etag"), '"uploaded-1"');
    assert.deepEqual(Buffer.from(await answer.arrayBuffer()), png);
  });

  it("answers 404 to strangers and 400 to bad parameters", async () => {
    assert.equal((await icon(stranger, `type=user&user=1:${bob.id}`)).status, 404);
    assert.equal((await icon(stranger, `type=group&group=1:${team.id}`)).status, 404);
    assert.equal((await icon(alice, `type=user&user=1:999999`)).status, 404);
    assert.equal((await icon(stranger, `type=user&user=1:${stranger.id}`)).status, 200, "one's own picture");
    assertError(await request(`${server.url}/api/icon/V2?type=x`, { token: alice.token }), 400, "INVALID_ICON_TYPE");
    assertError(await request(`${server.url}/api/icon/V2`, { token: alice.token }), 400, "PARAMETER_REQUIRED");
    assertError(
      await request(`${server.url}/api/icon/V2?type=user&user=bob`, { token: alice.token }),
      400,
      "INVALID_USER",
    );
  });
});
