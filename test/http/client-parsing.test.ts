// Answers read the way the original's clients read them: through xml2js, the parser their bots and
// export scripts used, which turns an element with attributes into an object and one without into
// a plain string.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { parseStringPromise } from "xml2js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { request } from "../support/http.js";
import { BoardClient } from "../support/notifications.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type GroupItems, seedGroup } from "../support/world.js";

/** An xml2js node: child arrays by element name, attributes under `$`, text under `_`. */
type Node = { readonly [name: string]: unknown };

async function parsed(server: TestServer, user: TestUser, path: string): Promise<Node> {
  const answer = await request(`${server.url}${path}`, { token: user.token });
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
  const document = (await parseStringPromise(answer.text)) as { feed?: Node };
  assert.ok(document.feed, `${path} answers a feed`);
  return document.feed;
}

function nodes(node: Node, name: string): Node[] {
  const value = node[name];
  return Array.isArray(value) ? (value as Node[]) : [];
}

/** Every `title` at any depth (embedded comment feeds included), with where it was found. */
function titlesOf(node: Node, path: string, found: { path: string; value: unknown }[] = []): typeof found {
  for (const [name, value] of Object.entries(node)) {
    if (name === "$" || !Array.isArray(value)) continue;
    for (const item of value as unknown[]) {
      if (name === "title") found.push({ path: `${path}/title`, value: item });
      else if (typeof item === "object" && item !== null) titlesOf(item as Node, `${path}/${name}`, found);
    }
  }
  return found;
}

/** Every `cbl:attachment`'s attributes at any depth. */
function attachmentsOf(node: Node, found: Record<string, string>[] = []): Record<string, string>[] {
  for (const [name, value] of Object.entries(node)) {
    if (name === "$" || !Array.isArray(value)) continue;
    for (const item of value as unknown[]) {
      if (typeof item !== "object" || item === null) continue;
      if (name === "cbl:attachment") found.push((item as { $: Record<string, string> }).$);
      else attachmentsOf(item as Node, found);
    }
  }
  return found;
}

describeEachBackend("answers as xml2js clients read them", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let home: GroupItems;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    home = await seedGroup(server, alice, [bob], "Home");
    const board = new BoardClient(server);
    await board.like(bob, home.topicId);
    const star = `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010"><cbl:operation type="insert"/><entry><id>${home.topicId}</id></entry></feed>`;
    assert.equal((await request(`${server.url}/api/star/V2`, { token: bob.token, body: star })).status, 200);
  });
  after(() => server.close());

  it("reads every feed and entry title as a plain string (no attributes), and summary with its type", async () => {
    const g = home.groupPair;
    const feeds: [TestUser, string][] = [
      [alice, `/api/board/V2?group=${g}&embed-comment=true`],
      [alice, `/api/board/V2?entry=${home.topicId}&embed-comment=true`],
      [alice, `/api/comment/V2?entry=${home.topicId}`],
      [alice, `/api/gwTask/V2?group=${g}`],
      [alice, `/api/gwCabinet/V2?group=${g}`],
      [alice, `/api/gwCabinet/V2?group=${g}&cabinet-folder=ATTACH`],
      [alice, `/api/gwMemberList/V2?group=${g}`],
      [bob, "/api/notification/V2?embed-attachment=true"],
      [alice, "/api/goodNotification/V2"],
      [alice, `/api/good/V2?id=${home.topicId}`],
      [bob, "/api/star/V2"],
      [alice, "/api/group/V2"],
      [alice, `/api/boardFolder/V2?group=${g}`],
      [alice, `/api/gwTaskFolder/V2?group=${g}`],
      [alice, `/api/gwCabinetFolder/V2?group=${g}`],
    ];
    for (const [user, path] of feeds) {
      const feed = await parsed(server, user, path);
      assert.equal(typeof nodes(feed, "title")[0], "string", `${path}: the feed's title[0]`);
      const entries = nodes(feed, "entry");
      assert.ok(entries.length > 0, `${path} lists something`);
      for (const entry of entries)
        assert.equal(typeof nodes(entry, "title")[0], "string", `${path}: an entry's title[0]`);
      for (const title of titlesOf(feed, path)) assert.equal(typeof title.value, "string", title.path);
    }
    const board = await parsed(server, alice, `/api/board/V2?entry=${home.topicId}`);
    const summary = nodes(nodes(board, "entry")[0]!, "summary")[0] as { $?: { type?: string }; _?: string };
    assert.equal(summary.$?.type, "text", 'summary keeps type="text"');
    assert.equal(summary._, "Home topic body");
  });

  it("gives every cbl:attachment the entryId that /api/fileDownload/V2 takes and its number", async () => {
    const sources: [TestUser, string][] = [
      [alice, `/api/comment/V2?entry=${home.topicId}`],
      [alice, `/api/board/V2?entry=${home.topicId}&embed-comment=true`],
      [bob, "/api/notification/V2?embed-attachment=true"],
    ];
    const seen = new Set<string>();
    for (const [user, path] of sources) {
      const attachments = attachmentsOf(await parsed(server, user, path));
      assert.ok(attachments.length > 0, `${path} shows attachments`);
      for (const attachment of attachments) {
        const { entryId, number, size } = attachment;
        assert.ok(entryId, `${path}: entryId on ${JSON.stringify(attachment)}`);
        assert.match(number ?? "", /^[1-9][0-9]*$/, `${path}: number on ${JSON.stringify(attachment)}`);
        const download = await fetch(`${server.url}/api/fileDownload/V2?id=${encodeURIComponent(entryId)}`, {
          headers: { authorization: `Bearer ${user.token}` },
        });
        assert.equal(download.status, 200, `${path}: downloading ${entryId}`);
        assert.equal((await download.arrayBuffer()).byteLength, Number(size), `${path}: the bytes of ${entryId}`);
        seen.add(entryId);
      }
    }
    assert.ok(seen.has(home.attachmentId), "the comment's attachment, by the id the export script reads");
    const { number } = attachmentsOf(await parsed(server, alice, `/api/comment/V2?entry=${home.topicId}`))[0]!;
    assert.equal(number, "1", "its number on the comment");
  });
});
