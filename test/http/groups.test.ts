import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { assertValidAtom } from "../support/atom-schema.js";
import { assertError, atomText, entriesOf, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("GET /api/group/V2 and /api/boardFolder/V2", (backend) => {
  let server: TestServer;
  before(async () => (server = await startTestServer(backend)));
  after(() => server.close());

  it("lists the caller's groups and a group's board folders", async () => {
    const f = server.factories;
    const alice = await f.user({ name: "Alice", level: "read" });
    const bob = await f.user();
    const mine = await f.group([alice], { name: "Mine" });
    server.clock.advance(1000);
    const ours = await f.group([alice, bob], { name: "Ours" });
    await f.group([bob], { name: "Not mine" });
    const folder = await f.boardFolder(ours, "News");

    const groups = await request(`${server.url}/api/group/V2`, { token: alice.token });
    assert.equal(groups.status, 200);
    await assertValidAtom(groups.text);
    assert.equal(
      atomText(
        groups.xml.children.find((c) => c.local === "author")!,
        "name",
      ),
      "Alice",
    );
    assert.deepEqual(
      entriesOf(groups.xml).map((e) => [atomText(e, "id"), atomText(e, "title")]),
      [
        [`GROUP,1:${ours.id}`, "Ours"],
        [`GROUP,1:${mine.id}`, "Mine"],
      ],
    );
    assert.equal(
      entriesOf((await request(`${server.url}/api/group/V2?max-results=1`, { token: alice.token })).xml).length,
      1,
    );

    const folders = await request(`${server.url}/api/boardFolder/V2?group=1:${ours.id}`, { token: alice.token });
    assert.equal(folders.status, 200);
    await assertValidAtom(folders.text);
    assert.deepEqual(
      entriesOf(folders.xml).map((e) => [atomText(e, "id"), atomText(e, "title")]),
      [[`1:${folder}`, "News"]],
    );
    assertError(await request(`${server.url}/api/boardFolder/V2`, { token: alice.token }), 400, "PARAMETER_REQUIRED");
    assertError(await request(`${server.url}/api/boardFolder/V2?group=1:${ours.id}`), 401, "AUTHENTICATION_REQUIRED");
    const outsider = await f.user();
    assertError(
      await request(`${server.url}/api/boardFolder/V2?group=1:${ours.id}`, { token: outsider.token }),
      403,
      "GROUP_NOT_JOINED",
    );
  });
});
