import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, it } from "node:test";
import type { ContentRef } from "../../src/domain/item-id.js";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import { filesUnder } from "../support/eventually.js";
import type { TestUser } from "../support/factories.js";
import { request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml, textOfId } from "../support/web.js";

function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\s+/g, " ");
}

/** Files in the temporary area of uploads (src/blobs/temp-area.ts). */
function tempFiles(dataDir: string): string[] {
  return filesUnder(join(dataDir, "tmp"));
}

describeEachBackend("web pages (writing)", (backend) => {
  let server: TestServer;
  let alice: TestUser; // manager
  let bob: TestUser;
  let group: Group;
  let g: string;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let folderId: number;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    group = await f.group([alice, bob], { managers: [alice] });
    folderId = await f.boardFolder(group, "News");
    g = `/g/1:${group.id}`;
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
  });
  after(() => server.close());
  const topics = () => server.store.read((tx) => tx.topics.list(group.id, { kind: "all" }, { offset: 0, limit: 100 }));
  const refOf = (topic: Topic): ContentRef => ({ kind: "BOARD", groupId: topic.groupId, id: topic.id });

  it("creates a topic from the form, in a folder, with shared editing", async () => {
    const form = await aliceWeb.get(`${g}/board/new?folder=1:${folderId}`);
    assert.match(
      form.html,
      new RegExp(`<option value="1:${folderId}" selected>News</option>`),
      "the folder the board showed is preselected",
    );
    const answer = await aliceWeb.post(`${g}/board/new`, {
      title: "Kick-off",
      body: "Monday 10:00",
      folder: `1:${folderId}`,
      allowEdit: "on",
    });
    assert.equal(answer.status, 303);
    const created = (await topics()).find((t) => t.title === "Kick-off")!;
    assert.equal(answer.location, `${g}/board/1:${created.id}`);
    assert.equal(created.body, "Monday 10:00");
    assert.equal(created.folderId, folderId);
    assert.equal(created.allowEdit, true);
    assert.equal(created.authorId, alice.id);
    const phone = await aliceWeb.post(
      `/m${g}/board/new`,
      { title: "From the phone", body: "" },
      { csrf: aliceWeb.csrf() },
    );
    assert.match(phone.location ?? "", new RegExp(`^/m${g}/board/1:\\d+$`), "the phone pages stay on the phone pages");
  });

  it("keeps what was typed and says what is wrong when the topic breaks a limit, and writes nothing", async () => {
    const before = (await topics()).length;
    await aliceWeb.get(`${g}/board/new`);
    for (const [title, body, message] of [
      ["", "body kept", "The topic title (entry/title) is missing or empty."],
      ["あ".repeat(201), "body kept", "The topic title is longer than 200 characters."],
      ["fine", "字".repeat(LIMITS.topicBodyMaxChars + 1), "longer than 20000 characters"],
    ] as const) {
      const answer = await aliceWeb.post(`${g}/board/new`, { title, body });
      assert.equal(answer.status, 400);
      assert.ok(textOfId(answer.html, "form-error")?.includes(message), textOfId(answer.html, "form-error"));
      assert.ok(answer.html.includes(`>${body}</textarea>`), "the text typed is still there");
      await assertValidHtml(answer.html, "form with an error");
    }
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(alice.email);
    await ja.get(`${g}/board/new`);
    assert.equal(
      textOfId((await ja.post(`${g}/board/new`, { title: "" })).html, "form-error"),
      "タイトルを入力してください。",
    );
    assert.equal((await topics()).length, before);
    assert.equal((await aliceWeb.post(`${g}/board/new`, { title: "x", folder: "1:999999" })).status, 404);
    assert.equal((await aliceWeb.post(`${g}/board/new`, { title: "x", folder: "junk" })).status, 404);
    assert.equal((await topics()).length, before);
  });

  it("leaves the topic free on a GET of the edit page; pressing Edit (a POST) takes the lease", async () => {
    const topic = await server.factories.topic(group, alice, { title: "Agenda", body: "v1", allowEdit: true });
    const path = `${g}/board/1:${topic.id}`;
    // Opening the edit page (a prefetch, a restored tab) offers the Edit button and takes nothing.
    const opened = await aliceWeb.get(`${path}/edit`);
    assert.equal(opened.status, 200);
    assert.match(opened.html, new RegExp(`<form method="post" action="${path}/lock"`));
    assert.doesNotMatch(opened.html, /id="topic-form"/, "no form to type into without the lease");
    await assertValidHtml(opened.html, "edit page without the lease");
    assert.equal(await server.store.read((tx) => tx.leases.find(topic.id)), undefined, "the GET took no lease");
    assert.equal((await bobWeb.get(`${path}/edit`)).status, 200, "Bob may open it too");
    assert.equal(await server.store.read((tx) => tx.leases.find(topic.id)), undefined);
    // The topic page's Edit is a POST form, not a link.
    const view = await aliceWeb.get(path);
    assert.match(view.html, new RegExp(`<form method="post" action="${path}/lock" class="inline">`));
    assert.doesNotMatch(view.html, new RegExp(`href="${path}/edit"`));
    const pressed = await aliceWeb.post(`${path}/lock`);
    assert.equal(pressed.status, 303);
    assert.equal(pressed.location, `${path}/edit`);
    assert.equal((await server.store.read((tx) => tx.leases.find(topic.id)))?.userId, alice.id);
    const form = await aliceWeb.get(`${path}/edit`);
    assert.equal(form.status, 200);
    assert.match(
      textOfId(form.html, "lease-note") ?? "",
      /You are editing this topic; others cannot change it until Apr 1, 2026, 9:10 AM/,
    );
    assert.match(form.html, /<time datetime="2026-04-01T09:10:00Z">/, "the end is a time the script can update");
    await assertValidHtml(form.html, "edit form");
    // Bob, who may edit too (shared editing), is told who is editing, on the page and on Edit.
    const refused = await bobWeb.get(`${path}/edit`);
    assert.equal(refused.status, 409);
    assert.match(text(refused.html), /Alice is editing this topic until Apr 1, 2026, 9:10 AM\./);
    await assertValidHtml(refused.html, "409 page");
    await bobWeb.get(path);
    assert.equal((await bobWeb.post(`${path}/lock`)).status, 409);
    const bobView = await bobWeb.get(path);
    assert.equal(textOfId(bobView.html, "edited-by"), "Alice is editing this topic until Apr 1, 2026, 9:10 AM.");
    const bobSave = await bobWeb.post(`${path}/edit`, { title: "Bob's", body: "v2" });
    assert.equal(bobSave.status, 409);
    assert.match(text(bobSave.html), /Alice is editing/);
    assert.equal((await server.store.read((tx) => tx.topics.findById(topic.id)))?.title, "Agenda", "nothing changed");
    // The holder's save ends the lease.
    await aliceWeb.get(`${path}/edit`);
    const saved = await aliceWeb.post(`${path}/edit`, { title: "Agenda (final)", body: "v3" });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, path);
    const after = await server.store.read((tx) => tx.topics.findById(topic.id));
    assert.deepEqual([after?.title, after?.body], ["Agenda (final)", "v3"]);
    assert.equal(await server.store.read((tx) => tx.leases.find(topic.id)), undefined);
    await bobWeb.get(path);
    assert.equal((await bobWeb.post(`${path}/lock`)).status, 303, "free again");
    await bobWeb.get(`${path}/edit`);
    await bobWeb.post(`${path}/release`);
  });

  it("gives the lease back on cancel, keeps it alive for the script, and lets it run out", async () => {
    const topic = await server.factories.topic(group, bob, { title: "Notes" });
    const path = `${g}/board/1:${topic.id}`;
    await bobWeb.get(path);
    await bobWeb.post(`${path}/lock`);
    await bobWeb.get(`${path}/edit`);
    const renewed = await bobWeb.post(`${path}/lease`);
    assert.equal(renewed.status, 204);
    assert.equal(renewed.headers.get("x-lease-until"), "2026-04-01T09:10:00Z", "the new end, for the notice");
    server.clock.advance(5 * 60 * 1000);
    await bobWeb.get(path);
    assert.equal((await bobWeb.post(`${path}/lease`)).status, 204);
    assert.equal(
      (await server.store.read((tx) => tx.leases.find(topic.id)))?.until,
      server.clock.now() + LIMITS.editLeaseMs,
    );
    assert.equal((await aliceWeb.get(`${path}/edit`)).status, 409, "a manager waits too");
    await bobWeb.get(`${path}/edit`);
    const cancelled = await bobWeb.post(`${path}/release`);
    assert.equal(cancelled.status, 303);
    assert.equal(await server.store.read((tx) => tx.leases.find(topic.id)), undefined);
    await bobWeb.get(path);
    await bobWeb.post(`${path}/lock`);
    server.clock.advance(LIMITS.editLeaseMs + 1);
    assert.equal((await aliceWeb.get(`${path}/edit`)).status, 200, "an expired lease does not hold anyone up");
    await aliceWeb.post(`${path}/release`);
  });

  it("re-renders the edit form with the problem, still holding the lease", async () => {
    const topic = await server.factories.topic(group, alice, { title: "Short" });
    const path = `${g}/board/1:${topic.id}`;
    await aliceWeb.get(`${path}/edit`);
    const answer = await aliceWeb.post(`${path}/edit`, { title: "", body: "kept" });
    assert.equal(answer.status, 400);
    assert.match(textOfId(answer.html, "form-error") ?? "", /missing or empty/);
    assert.ok(answer.html.includes(">kept</textarea>"));
    assert.equal((await server.store.read((tx) => tx.leases.find(topic.id)))?.userId, alice.id);
    assert.equal((await server.store.read((tx) => tx.topics.findById(topic.id)))?.title, "Short");
  });

  it("moves a topic to the trash and back, and deletes it for good only from the trash", async () => {
    const topic = await server.factories.topic(group, bob, { title: "Delete me" });
    await server.factories.comment(topic, alice, { body: "a comment" });
    const path = `${g}/board/1:${topic.id}`;
    const stored = () => server.store.read((tx) => tx.topics.findById(topic.id));
    await bobWeb.get(path);
    assert.equal((await bobWeb.post(`${path}/delete`)).status, 409, "not in the trash: not deleted");
    assert.equal((await stored())?.trashed, false);
    await bobWeb.get(path);
    const trashed = await bobWeb.post(`${path}/trash`);
    assert.equal(trashed.status, 303);
    assert.equal(trashed.location, path);
    assert.equal((await stored())?.trashed, true);
    const inTrash = await bobWeb.get(path);
    assert.match(inTrash.html, /This topic is in the trash\./);
    assert.match(inTrash.html, new RegExp(`action="${path}/restore"`));
    assert.match(inTrash.html, /<details class="confirm">\s*<summary class="button danger">Delete for good<\/summary>/);
    assert.doesNotMatch(inTrash.html, new RegExp(`action="${path}/(lock|trash|move)"`), "no editing in the trash");
    for (const crafted of ["lock", "edit", "lease"]) {
      await bobWeb.get(path);
      const answer = await bobWeb.post(`${path}/${crafted}`, { title: "Edited in the trash", body: "" });
      assert.equal(answer.status, 409, `a crafted POST ${crafted} is refused in the trash`);
    }
    assert.equal((await bobWeb.get(`${path}/edit`)).status, 409, "no edit form in the trash");
    assert.equal(await server.store.read((tx) => tx.leases.find(topic.id)), undefined, "no lease taken");
    assert.equal((await stored())?.title, "Delete me");
    await assertValidHtml(inTrash.html, "topic in the trash");
    assert.match((await bobWeb.get(`${g}/board?folder=TRASH`)).html, /Delete me/, "listed in the trash");
    assert.doesNotMatch((await bobWeb.get(`${g}/board`)).html, /Delete me/, "gone from the board");
    assert.equal((await bobWeb.post(`${path}/trash`)).status, 409, "already in the trash");
    await bobWeb.get(path);
    const restored = await bobWeb.post(`${path}/restore`);
    assert.equal(restored.status, 303);
    assert.equal((await stored())?.trashed, false);
    assert.match((await bobWeb.get(`${g}/board`)).html, /Delete me/, "back on the board");
    await bobWeb.post(`${path}/trash`);
    await bobWeb.get(path);
    const gone = await bobWeb.post(`${path}/delete`);
    assert.equal(gone.status, 303);
    assert.equal(gone.location, `${g}/board?folder=TRASH`);
    assert.equal(await stored(), undefined);
    assert.equal(
      await server.store.read((tx) => tx.comments.count({ kind: "BOARD", groupId: group.id, id: topic.id }, {})),
      0,
      "its comments went with it",
    );
  });

  it("files a topic in a folder or none; only those who may edit it", async () => {
    const topic = await server.factories.topic(group, alice, { title: "File me" });
    const path = `${g}/board/1:${topic.id}`;
    const page = await aliceWeb.get(path);
    assert.match(page.html, /<option value="UNCLASSIFIED" selected>Unfiled<\/option>/);
    const moved = await aliceWeb.post(`${path}/move`, { folder: `1:${folderId}` });
    assert.equal(moved.status, 303);
    assert.equal((await server.store.read((tx) => tx.topics.findById(topic.id)))?.folderId, folderId);
    assert.match((await aliceWeb.get(path)).html, new RegExp(`<option value="1:${folderId}" selected>News</option>`));
    assert.equal((await aliceWeb.post(`${path}/move`, { folder: "1:999999" })).status, 404);
    await aliceWeb.get(path);
    assert.equal((await aliceWeb.post(`${path}/move`, { folder: "TRASH" })).status, 400, "the trash has its button");
    await aliceWeb.get(path);
    assert.equal((await aliceWeb.post(`${path}/move`, { folder: "UNCLASSIFIED" })).status, 303);
    assert.equal((await server.store.read((tx) => tx.topics.findById(topic.id)))?.folderId, null);
    // Bob may neither edit (shared editing is off) nor delete Alice's topic.
    const bobPage = await bobWeb.get(path);
    assert.doesNotMatch(bobPage.html, /action="[^"]*\/(move|trash|lock)"/);
    for (const [action, fields] of [
      ["move", { folder: `1:${folderId}` }],
      ["trash", {}],
      ["lock", {}],
    ] as const) {
      await bobWeb.get(path);
      assert.equal((await bobWeb.post(`${path}/${action}`, fields)).status, 403, action);
    }
    const after = await server.store.read((tx) => tx.topics.findById(topic.id));
    assert.deepEqual([after?.folderId, after?.trashed], [null, false]);
  });

  it("shows web addresses in topic bodies and comments as safe links, with line breaks kept", async () => {
    const topic = await server.factories.topic(group, alice, {
      title: "Links",
      body: 'Agenda: https://example.com/plan?a=1&b=2.\nNot this: javascript:alert(1) <b>"bold"</b>',
    });
    await server.factories.comment(topic, bob, { body: "Minutes (https://example.org/m)\nthanks" });
    const page = await aliceWeb.get(`${g}/board/1:${topic.id}`);
    assert.ok(
      page.html.includes(
        '<div class="markdown body"><p>Agenda: <a href="https://example.com/plan?a=1&amp;b=2" rel="noopener nofollow">https://example.com/plan?a=1&amp;b=2</a>.<br>\nNot this: javascript:alert(1) &lt;b&gt;&quot;bold&quot;&lt;/b&gt;</p>\n</div>',
      ),
      page.html,
    );
    assert.ok(
      page.html.includes(
        '<div class="markdown"><p>Minutes (<a href="https://example.org/m" rel="noopener nofollow">https://example.org/m</a>)<br>\nthanks</p>\n</div>',
      ),
    );
    await assertValidHtml(page.html, "topic with links");
  });

  it("posts comments with up to 10 files, replies, and refuses an 11th file without storing anything", async () => {
    const topic = await server.factories.topic(group, alice, { title: "Photos" });
    const path = `${g}/board/1:${topic.id}`;
    await bobWeb.get(path);
    const plain = await bobWeb.post(`${path}/comments`, { text: "plain form, no files" });
    assert.equal(plain.location, `${path}#comment-1`);
    const ten = new FormData();
    ten.set("_csrf", bobWeb.csrf());
    ten.set("text", "ten files");
    ten.set("replyTo", "1");
    for (let i = 0; i < 10; i++) ten.append("files", new Blob([`file ${i}`], { type: "text/plain" }), `f${i}.txt`);
    const answer = await bobWeb.postMultipart(`${path}/comments`, ten);
    assert.equal(answer.status, 303, answer.html.slice(0, 500));
    assert.equal(answer.location, `${path}#comment-2`);
    const stored = await server.store.read(async (tx) => {
      const comment = await tx.comments.find(refOf(topic), 2);
      return { comment, files: await tx.attachments.listOf([comment!.id]) };
    });
    assert.equal(stored.comment?.replyTo, 1);
    assert.deepEqual(
      stored.files.map((f) => f.fileName),
      Array.from({ length: 10 }, (_, i) => `f${i}.txt`),
    );
    const eleven = new FormData();
    eleven.set("_csrf", bobWeb.csrf());
    eleven.set("text", "eleven");
    for (let i = 0; i < 11; i++) eleven.append("files", new Blob([`x${i}`]), `g${i}.txt`);
    const refused = await bobWeb.postMultipart(`${path}/comments`, eleven);
    assert.equal(refused.status, 400);
    assert.match(text(refused.html), /A comment carries at most 10 files/);
    assert.equal(await server.store.read((tx) => tx.comments.count(refOf(topic), {})), 2);
    assert.deepEqual(tempFiles(server.dataDir), [], "no temporary file left behind");
    // Files only (no text), and an empty file input, as a browser sends it when nothing is chosen.
    const onlyFile = new FormData();
    onlyFile.set("_csrf", bobWeb.csrf());
    onlyFile.set("text", "");
    onlyFile.append("files", new Blob([new Uint8Array(0)], { type: "application/octet-stream" }), "");
    const empty = await bobWeb.postMultipart(`${path}/comments`, onlyFile);
    assert.equal(empty.status, 400, "no text and no real file");
    assert.match(text(empty.html), /comment text .* is missing or empty/);
    const page = await bobWeb.get(path);
    assert.match(text(page.html), /In reply to #1 by Bob : “?plain form, no files/);
    assert.equal([...page.html.matchAll(/class="download"/g)].length, 10);
  });

  it("checks the form's token before storing any file of a comment", async () => {
    const topic = await server.factories.topic(group, alice, { title: "Guarded" });
    const path = `${g}/board/1:${topic.id}`;
    await bobWeb.get(path);
    for (const csrf of [undefined, "forged"]) {
      const form = new FormData();
      if (csrf !== undefined) form.set("_csrf", csrf);
      form.set("text", "sneaky");
      form.append("files", new Blob(["payload"]), "payload.txt");
      const answer = await bobWeb.postMultipart(`${path}/comments`, form);
      assert.equal(answer.status, 403);
    }
    // A token that comes after the files is as good as none: files are never stored first.
    const late = new FormData();
    late.set("text", "late token");
    late.append("files", new Blob(["payload"]), "payload.txt");
    late.set("_csrf", bobWeb.csrf());
    assert.equal((await bobWeb.postMultipart(`${path}/comments`, late)).status, 403);
    assert.equal(await server.store.read((tx) => tx.comments.count(refOf(topic), {})), 0);
    assert.deepEqual(tempFiles(server.dataDir), []);
  });

  it("likes, unlikes, favorites and unfavorites topics and comments; deletes comments", async () => {
    const topic = await server.factories.topic(group, alice, { title: "Likeable" });
    await server.factories.comment(topic, alice, { body: "a comment" });
    const path = `${g}/board/1:${topic.id}`;
    const likers = () => server.store.read((tx) => tx.likes.likers({ kind: "BOARD", id: topic.id }));
    await bobWeb.get(path);
    assert.equal((await bobWeb.post(`${path}/like`, { on: "true" })).location, path);
    assert.deepEqual(
      (await likers()).map((l) => l.name),
      ["Bob"],
    );
    await bobWeb.get(path);
    await bobWeb.post(`${path}/like`, { on: "true" });
    assert.equal((await likers()).length, 1, "liking twice is one like");
    await bobWeb.post(`${path}/like`, { on: "false" });
    assert.deepEqual(await likers(), []);
    await bobWeb.post(`${path}/favorite`, { on: "true" });
    assert.equal((await bobWeb.get("/favorites")).html.includes("Likeable"), true);
    await bobWeb.post(`${path}/favorite`, { on: "false" });
    assert.equal((await bobWeb.get("/favorites")).html.includes("Likeable"), false);
    await bobWeb.get(path);
    assert.equal((await bobWeb.post(`${path}/comments/1/like`, { on: "true" })).location, `${path}#comment-1`);
    await bobWeb.post(`${path}/comments/1/favorite`, { on: "true" });
    const page = await bobWeb.get(path);
    const comment = text(page.html.slice(page.html.indexOf('id="comment-1"')));
    assert.match(comment, /Unlike Liked by Bob Remove from favorites/);
    assert.equal((await bobWeb.post(`${path}/comments/9/like`, { on: "true" })).status, 404);
    await aliceWeb.get(path);
    assert.equal((await aliceWeb.post(`${path}/comments/1/delete`)).location, `${path}#comments`);
    assert.equal(await server.store.read((tx) => tx.comments.count(refOf(topic), {})), 0);
    assert.equal((await bobWeb.get("/favorites")).html.includes("a comment"), false, "its favorite went with it");
  });

  it("comments on tasks and files too", async () => {
    const task = await server.factories.task(group, alice, { title: "Task with talk" });
    await bobWeb.get(`${g}/tasks/1:${task.id}`);
    const answer = await bobWeb.post(`${g}/tasks/1:${task.id}/comments`, { text: "on it" });
    assert.equal(answer.location, `${g}/tasks/1:${task.id}#comment-1`);
    assert.match(text((await bobWeb.get(`${g}/tasks/1:${task.id}`)).html), /on it/);
    await bobWeb.post(`${g}/tasks/1:${task.id}/like`, { on: "true" });
    assert.deepEqual(
      (await server.store.read((tx) => tx.likes.likers({ kind: "TASK", id: task.id }))).map((l) => l.name),
      ["Bob"],
    );
  });

  it("switches a group's notifications, creates a personal token shown once, and revokes it", async () => {
    await bobWeb.get("/settings");
    const off = await bobWeb.post("/settings/notify", { group: `1:${group.id}`, notify: "false" });
    assert.equal(off.location, "/settings?saved=1#notify");
    assert.equal((await server.store.read((tx) => tx.memberships.findJoined(group.id, bob.id)))?.notify, false);
    const settings = await bobWeb.get("/settings?saved=1");
    assert.match(text(settings.html), /Saved\..* Do not notify Notify/);
    await bobWeb.post("/settings/notify", { group: `1:${group.id}`, notify: "true" });
    assert.equal((await server.store.read((tx) => tx.memberships.findJoined(group.id, bob.id)))?.notify, true);

    await bobWeb.get("/settings");
    const created = await bobWeb.post("/settings/tokens", { app: String(bob.consumer.id), label: "my script" });
    assert.equal(created.status, 200);
    assert.equal(created.headers.get("cache-control"), "no-store");
    await assertValidHtml(created.html, "token page");
    const token = textOfId(created.html, "new-token")!;
    assert.match(token, /^[A-Za-z0-9_-]{32}$/);
    const feed = await request(`${server.url}/api/group/V2`, { token });
    assert.equal(feed.status, 200, "the token works as Bearer");
    const list = await bobWeb.get("/settings");
    assert.ok(!list.html.includes(token), "never shown again");
    assert.match(text(list.html), /my script App \d+ · Access level Z/);
    const id = /action="\/settings\/tokens\/(\d+)\/revoke"/.exec(list.html.slice(list.html.indexOf("my script")))?.[1];
    const revoked = await bobWeb.post(`/settings/tokens/${id}/revoke`);
    assert.equal(revoked.location, "/settings#tokens");
    assert.equal((await request(`${server.url}/api/group/V2`, { token })).status, 401);
    await bobWeb.get("/settings");
    assert.equal((await bobWeb.post(`/settings/tokens/${id}/revoke`)).status, 404, "once");
    const aliceTokenId = (await server.store.read((tx) => tx.tokens.listLiveOfUser(alice.id)))[0]!.id;
    assert.equal((await bobWeb.post(`/settings/tokens/${aliceTokenId}/revoke`)).status, 404, "not someone else's");
    assert.equal((await request(`${server.url}/api/group/V2`, { token: alice.token })).status, 200);
    const badLabel = await bobWeb.post("/settings/tokens", { app: String(bob.consumer.id), label: "" });
    assert.equal(badLabel.status, 400);
    assert.equal((await bobWeb.post("/settings/tokens", { app: "999999", label: "x" })).status, 404);
  });

  it("lists the applications a person authorized through OAuth and revokes them", async () => {
    const app = await server.factories.app("read", "Feed Reader");
    await server.store.transaction((tx) =>
      tx.tokens.insert({
        userId: bob.id,
        appId: app.id,
        tokenHash: "oauth-hash-1",
        secret: "s",
        label: "OAuth",
        origin: "oauth",
        createdAt: server.clock.now(),
      }),
    );
    const page = await bobWeb.get("/settings");
    assert.match(
      text(page.html.slice(page.html.indexOf('id="apps"'))),
      /Feed Reader Access level read · Authorized .* · 1 tokens/,
    );
    const answer = await bobWeb.post(`/settings/apps/${app.id}/revoke`);
    assert.equal(answer.location, "/settings#apps");
    assert.equal(await server.store.read((tx) => tx.tokens.findLive("oauth-hash-1")), undefined);
    await bobWeb.get("/settings");
    assert.equal((await bobWeb.post(`/settings/apps/${app.id}/revoke`)).status, 404);
  });
});
