// Text that reaches Kairan through a web form may hold characters the API could never carry (a
// NUL, other C0 controls): a script or a paste puts them in a field. Such a form is refused with
// a page that names the field, and nothing is written, on SQLite and on PostgreSQL alike (where a
// NUL was a server fault); tabs and line breaks are text like any other.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { type DataSnapshot, type Snapshotter, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** The tables a refused form could have written to (sessions move with every request). */
const WRITTEN = ["topics", "comments", "attachments", "tokens", "notifications"] as const;

function written(snapshot: DataSnapshot): string[] {
  return WRITTEN.flatMap((table) => snapshot.tables[table] ?? []);
}

describeEachBackend("web forms holding control characters", (backend) => {
  let server: TestServer;
  let web: WebClient;
  let g: string;
  let topicPath: string;
  let snapshots: Snapshotter;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    const alice = await f.user({ name: "Alice" });
    const bob = await f.user({ name: "Bob" });
    const group = await f.group([alice, bob], { managers: [alice] });
    const topic = await f.topic(group, alice);
    g = `/g/1:${group.id}`;
    topicPath = `${g}/board/1:${topic.id}`;
    web = new WebClient(server.url);
    await web.signIn(alice.email);
    await web.get(`${g}/board/new`);
    snapshots = openSnapshotter(server);
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  async function assertRefused(send: () => Promise<{ status: number; html: string }>, field: string): Promise<void> {
    const before = written(await snapshots.take());
    const answer = await send();
    assert.equal(answer.status, 400, answer.html.slice(0, 500));
    assert.match(answer.html, new RegExp(`The field &quot;${field}&quot; holds a control character`));
    await assertValidHtml(answer.html, "the refusal");
    assert.deepEqual(written(await snapshots.take()), before, "nothing written");
  }

  it("refuses a topic whose title or body holds a NUL or another control character", async () => {
    for (const [title, body, field] of [
      ["Fine title", "a\u0000b", "body"],
      ["bell\u0007", "fine body", "title"],
      ["Fine title", "form feed\u000c", "body"],
      ["Fine title", "\uffff", "body"],
    ] as const)
      await assertRefused(() => web.post(`${g}/board/new`, { title, body }), field);
  });

  it("refuses a comment holding one, as a plain form and as multipart, storing no file", async () => {
    await web.get(topicPath);
    await assertRefused(() => web.post(`${topicPath}/comments`, { text: "nul\u0000" }), "text");
    const form = new FormData();
    form.append("_csrf", web.csrf());
    form.append("text", "escape\u001b[31m");
    form.append("files", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
    await assertRefused(() => web.postMultipart(`${topicPath}/comments`, form), "text");
  });

  it("refuses a personal token label holding one", async () => {
    await web.get("/settings");
    await assertRefused(() => web.post("/settings/tokens", { label: "label\u0000" }), "label");
  });

  it("keeps tabs and line breaks, which are text", async () => {
    await web.get(`${g}/board/new`);
    const answer = await web.post(`${g}/board/new`, { title: "Tabs\tand lines", body: "one\r\ntwo\n\tthree" });
    assert.equal(answer.status, 303, answer.html.slice(0, 300));
    const page = await web.get(answer.location ?? "");
    assert.match(page.html, /one<br>\s+two<br>\s+three/, "line breaks kept (as <br> in Markdown), the tab as text");
  });
});
