import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { TestUser } from "../support/factories.js";
import { atomText, entriesOf, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("GET /api/board/V2 deep pages (ids first, joins after)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  let folderId: number;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user();
    const bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob]);
    folderId = await server.factories.boardFolder(group, "F");
    for (let i = 1; i <= 130; i++) {
      await server.factories.topic(group, i % 2 ? alice : bob, {
        title: `t${i}`,
        folderId: i % 3 === 0 ? folderId : null,
      });
      // Every third pair shares a timestamp: the id must break the tie the same way on every path.
      if (i % 2 === 0) server.clock.advance(1000);
    }
  });
  after(() => server.close());

  const titles = async (query: string) => {
    const answer = await request(`${server.url}/api/board/V2?group=1:${group.id}&${query}`, { token: alice.token });
    assert.equal(answer.status, 200, answer.text);
    return entriesOf(answer.xml).map((entry) => atomText(entry, "title"));
  };

  it("gives the same order across the shallow and the deep path", async () => {
    const all = [...(await titles("max-results=100")), ...(await titles("max-results=100&start-index=100"))];
    assert.equal(all.length, 130);
    assert.deepEqual(all.slice(0, 3), ["t130", "t129", "t128"]);
    assert.deepEqual(await titles("max-results=5&start-index=99"), all.slice(99, 104));
    assert.deepEqual(await titles("max-results=5&start-index=120"), all.slice(120, 125));
    assert.deepEqual(await titles("max-results=5&start-index=128"), ["t2", "t1"]);
    assert.deepEqual(await titles("start-index=500"), []);
  });

  it("filters by folder, and names the authors on deep pages", async () => {
    const folder = await titles(`board-folder=1:${folderId}&max-results=100&start-index=0`);
    assert.equal(folder.length, 43);
    const answer = await request(`${server.url}/api/board/V2?group=1:${group.id}&start-index=100&max-results=2`, {
      token: alice.token,
    });
    assert.match(answer.text, /<author><name>Bob<\/name>/);
  });
});
