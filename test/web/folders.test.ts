import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { atomText, entriesOf, nsChild, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web pages: folders of the board, tasks and files", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let g: string;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    group = await f.group([alice, bob], { name: "Team", managers: [alice] });
    g = `/g/1:${group.id}`;
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
  });
  after(() => server.close());

  const apiFolders = async (endpoint: string, token = alice.token) => {
    const answer = await request(`${server.url}/api/${endpoint}/V2?group=1:${group.id}`, { token });
    assert.equal(answer.status, 200, answer.text);
    return entriesOf(answer.xml).map((entry) => [atomText(entry, "id"), atomText(entry, "title")]);
  };
  const folderIds = async (area: "BOARD" | "TASK" | "CABINET") =>
    (await server.store.read((tx) => tx.folders.list(group.id, area, { offset: 0, limit: 200 }))).map((f) => f.id);
  const change = async (web: WebClient, area: string, fields: Record<string, string>) => {
    await web.get(`${g}/${area}/folders`);
    return web.post(`${g}/${area}/folders`, fields);
  };

  it("a manager adds, renames, orders and removes board folders; the API and its kept feeds see each change at once", async () => {
    // A poll first, so that the folder list is kept by the feed cache.
    assert.deepEqual(await apiFolders("boardFolder"), []);
    const page = await aliceWeb.get(`${g}/board`);
    assert.match(page.html, new RegExp(`href="${g}/board/folders">Manage folders<`));
    const manage = await aliceWeb.get(`${g}/board/folders`);
    assert.equal(manage.status, 200);
    await assertValidHtml(manage.html, "folders page");
    assert.equal((await change(aliceWeb, "board", { change: "add", name: " News " })).status, 303);
    assert.equal((await change(aliceWeb, "board", { change: "add", name: "Minutes" })).status, 303);
    const [news, minutes] = await folderIds("BOARD");
    assert.deepEqual(await apiFolders("boardFolder"), [
      [`1:${news}`, "News"],
      [`1:${minutes}`, "Minutes"],
    ]);
    const board = await aliceWeb.get(`${g}/board`);
    assert.match(board.html, new RegExp(`folder=1%3A${news}"[^>]*>News<`), "the board's filter offers it");

    await change(aliceWeb, "board", { change: "up", id: `1:${minutes}` });
    await change(aliceWeb, "board", { change: "rename", id: `1:${news}`, name: "Announcements" });
    assert.deepEqual(await apiFolders("boardFolder"), [
      [`1:${minutes}`, "Minutes"],
      [`1:${news}`, "Announcements"],
    ]);

    const topic = await server.factories.topic(group, alice, { title: "Filed", folderId: news! });
    const filtered = await request(`${server.url}/api/board/V2?group=1:${group.id}&board-folder=1:${news}`, {
      token: alice.token,
    });
    const [entry] = entriesOf(filtered.xml);
    assert.equal(nsChild(entry!, "cblBrd", "folder")?.attributes.get("valueString"), "Announcements");
    const updated = (await server.store.read((tx) => tx.topics.findById(topic.id)))!.updatedAt;

    assert.equal((await change(aliceWeb, "board", { change: "remove", id: `1:${news}` })).status, 303);
    assert.deepEqual(await apiFolders("boardFolder"), [[`1:${minutes}`, "Minutes"]]);
    const unclassified = await request(`${server.url}/api/board/V2?group=1:${group.id}&board-folder=UNCLASSIFIED`, {
      token: alice.token,
    });
    assert.deepEqual(
      entriesOf(unclassified.xml).map((e) => atomText(e, "title")),
      ["Filed"],
      "the removed folder's topic is unclassified",
    );
    assert.equal(nsChild(entriesOf(unclassified.xml)[0]!, "cblBrd", "folder"), undefined);
    const after = (await server.store.read((tx) => tx.topics.findById(topic.id)))!;
    assert.deepEqual([after.folderId, after.updatedAt], [null, updated], "kept, its time unchanged");
    const gone = await request(`${server.url}/api/board/V2?group=1:${group.id}&board-folder=1:${news}`, {
      token: alice.token,
    });
    assert.equal(gone.status, 404);
  });

  it("does the same for task and file folders", async () => {
    for (const [area, folderArea, endpoint] of [
      ["tasks", "TASK", "gwTaskFolder"],
      ["files", "CABINET", "gwCabinetFolder"],
    ] as const) {
      const list = await aliceWeb.get(`${g}/${area}`);
      assert.match(list.html, new RegExp(`href="${g}/${area}/folders">Manage folders<`), area);
      assert.equal((await change(aliceWeb, area, { change: "add", name: `${area} A` })).status, 303);
      assert.equal((await change(aliceWeb, area, { change: "add", name: `${area} B` })).status, 303);
      const [a, b] = await folderIds(folderArea);
      await change(aliceWeb, area, { change: "down", id: `1:${a}` });
      assert.deepEqual(await apiFolders(endpoint), [
        [`1:${b}`, `${area} B`],
        [`1:${a}`, `${area} A`],
      ]);
      await change(aliceWeb, area, { change: "remove", id: `1:${b}` });
      assert.deepEqual(await apiFolders(endpoint), [[`1:${a}`, `${area} A`]]);
    }
  });

  it("takes a name at its limit, refuses one past it and bad changes, with one clear error and nothing changed", async () => {
    const before = await folderIds("BOARD");
    const longest = "f".repeat(LIMITS.folderNameMaxChars);
    for (const [fields, status, text] of [
      [{ change: "add", name: `${longest}f` }, 400, "The folder&#39;s name is longer than 100 characters."],
      [{ change: "add", name: "   " }, 400, "The folder&#39;s name is missing or empty."],
      [{ change: "add", name: "a\u202Eb" }, 400, "control characters"],
      [{ change: "rename", id: "nonsense", name: "x" }, 400, "id must name a folder."],
      [{ change: "shuffle", id: `1:${before[0]}` }, 400, "change must be add, rename, up, down or remove."],
      [{ change: "rename", id: "1:999999", name: "x" }, 404, ""],
    ] as const) {
      const answer = await change(aliceWeb, "board", fields);
      assert.equal(answer.status, status, JSON.stringify(fields));
      assert.ok(answer.html.includes(text), `${JSON.stringify(fields)}: ${text}`);
    }
    assert.deepEqual(await folderIds("BOARD"), before, "nothing changed");
    assert.equal((await change(aliceWeb, "board", { change: "add", name: longest })).status, 303);
    const refused = await aliceWeb.get(`${g}/board/folders`);
    await assertValidHtml(refused.html, "folders page with a long name");
  });

  it("keeps an area to its most folders: the last one passes, one more is refused", async () => {
    const count = (await folderIds("CABINET")).length;
    for (let i = count; i < LIMITS.foldersPerAreaMax - 1; i++) await server.factories.folder(group, "CABINET");
    assert.equal((await change(aliceWeb, "files", { change: "add", name: "Last" })).status, 303);
    const full = await aliceWeb.get(`${g}/files/folders`);
    assert.match(full.html, /as many folders as it can hold/);
    const refused = await aliceWeb.post(`${g}/files/folders`, { change: "add", name: "One more" });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /at most 100 folders/);
    assert.equal((await folderIds("CABINET")).length, LIMITS.foldersPerAreaMax);
  });

  it("refuses members until the group allows it on its settings page; then they manage folders too", async () => {
    const page = await bobWeb.get(`${g}/board/folders`);
    assert.equal(page.status, 200, "members see the folders");
    assert.match(page.html, /Only the group&#39;s managers change its folders\./);
    assert.doesNotMatch(page.html, /name="change"/, "no forms");
    assert.doesNotMatch((await bobWeb.get(`${g}/board`)).html, /Manage folders/);
    const before = await folderIds("BOARD");
    const refused = await bobWeb.post(`${g}/board/folders`, { change: "add", name: "Mine" });
    assert.equal(refused.status, 403);
    assert.deepEqual(await folderIds("BOARD"), before);

    const edit = await aliceWeb.get(`${g}/edit`);
    assert.match(edit.html, /Members may add, rename, order and remove folders/);
    assert.doesNotMatch(edit.html, /name="membersManageFolders"[^>]*checked/);
    const saved = await aliceWeb.post(`${g}/edit`, { name: "Team", summary: "", membersManageFolders: "true" });
    assert.equal(saved.status, 303);
    assert.match(
      (await aliceWeb.get(`${g}/edit`)).html,
      /name="membersManageFolders" type="checkbox" value="true" checked/,
    );
    assert.equal((await change(bobWeb, "board", { change: "add", name: "Mine" })).status, 303);
    assert.match((await bobWeb.get(`${g}/board`)).html, /Manage folders/);

    await aliceWeb.get(`${g}/edit`);
    assert.equal((await aliceWeb.post(`${g}/edit`, { name: "Team", summary: "" })).status, 303, "unchecked: off");
    assert.equal((await change(bobWeb, "board", { change: "add", name: "Again" })).status, 403);
    assert.equal((await server.store.read((tx) => tx.groups.findById(group.id)))?.membersManageFolders, false);
  });

  it("refuses a non-member every folder page and change, naming nothing of the group", async () => {
    const outsider = await server.factories.user({ name: "Oscar" });
    const web = new WebClient(server.url);
    await web.signIn(outsider.email);
    const before = await folderIds("BOARD");
    for (const area of ["board", "tasks", "files"]) {
      const answer = await web.get(`${g}/${area}/folders`);
      assert.equal(answer.status, 403, area);
      assert.doesNotMatch(answer.html, /Team|Minutes/);
      await web.get("/");
      assert.equal((await web.post(`${g}/${area}/folders`, { change: "add", name: "Intruder" })).status, 403);
    }
    assert.deepEqual(await folderIds("BOARD"), before);
  });

  it("speaks Japanese", async () => {
    const web = new WebClient(server.url, "ja");
    await web.signIn(alice.email);
    const page = await web.get(`${g}/board/folders`);
    assert.match(page.html, /掲示板のフォルダ/);
    assert.match(page.html, /フォルダを追加/);
    const long = await web.post(`${g}/board/folders`, { change: "add", name: "x".repeat(101) });
    assert.match(long.html, /フォルダ名は 100 文字までです。/);
  });
});
