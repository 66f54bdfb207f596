import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { Task } from "../../src/domain/task.js";
import type { Topic } from "../../src/domain/topic.js";
import type { CabinetFile } from "../../src/domain/file.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile } from "../support/files.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web pages: who may see and do what", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let secret: Group;
  let topic: Topic;
  let task: Task;
  let file: CabinetFile;
  let eventId: number;
  let personalId: number;
  let mine: Group;
  let g: string;
  const SECRET_WORDS = ["Secret Council", "Launch codes", "Budget 2027", "plan.txt", "Alice", "hidden body"];

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    outsider = await f.user({ name: "Oscar" });
    secret = await f.group([alice, bob], { name: "Secret Council" });
    mine = await f.group([outsider], { name: "Oscar's group" });
    topic = await f.topic(secret, alice, { title: "Launch codes", body: "hidden body" });
    await f.comment(topic, alice, { body: "hidden body" });
    task = await f.task(secret, alice, { title: "Budget 2027" });
    file = await addTestFile(server, secret, alice, { fileName: "plan.txt", bytes: Buffer.from("hidden body") });
    g = `/g/1:${secret.id}`;
    const [start, end] = [Date.UTC(2026, 3, 8, 9), Date.UTC(2026, 3, 8, 10)];
    eventId = await server.store.transaction((tx) =>
      tx.events.insert({
        title: "Launch codes",
        memo: "hidden body",
        start,
        end,
        allDay: false,
        timeZone: "UTC",
        rule: null,
        menuId: null,
        participantIds: [],
        facilityIds: [],
        exceptions: [],
        seriesEnd: end,
        groupId: secret.id,
        creatorId: alice.id,
        at: start,
      }),
    );
    personalId = await server.store.transaction((tx) =>
      tx.personalEvents.insert({
        title: "Launch codes",
        memo: "hidden body",
        start,
        end,
        allDay: false,
        timeZone: "UTC",
        rule: null,
        exceptions: [],
        seriesEnd: end,
        ownerId: alice.id,
        at: start,
      }),
    );
  });
  after(() => server.close());

  const readable = () => [
    `${g}/board`,
    `${g}/board/1:${topic.id}`,
    `${g}/board/1:${topic.id}/edit`,
    `${g}/board/new`,
    `${g}/board/folders`,
    `${g}/tasks/folders`,
    `${g}/files/folders`,
    `${g}/tasks`,
    `${g}/tasks/1:${task.id}`,
    `${g}/tasks/export`,
    `${g}/files`,
    `${g}/files/1:${file.id}`,
    `${g}/members`,
    `${g}/members/1:1`,
    `${g}/members/export`,
    `${g}/audit`,
    `${g}/export`,
    `${g}/events`,
    `${g}/events?view=week&date=2026-04-08`,
    `${g}/events?view=members&date=2026-04-08`,
    `${g}/events?view=day&date=2026-04-08`,
    `${g}/events?view=list&date=2026-04-01`,
    `${g}/events/new`,
    `${g}/events/lists`,
    `${g}/events/1:${eventId}`,
    `${g}/events/1:${eventId}/edit`,
    `/download?id=${encodeURIComponent(`GROUP,1:${secret.id},CABINET,1:${file.id}`)}`,
    `/download?id=${encodeURIComponent(`GROUP,1:${secret.id},BOARD,1:${topic.id},COMMENT,1,ATTACHMENT,1`)}`,
  ];

  it("refuses a non-member every page of the group, and the refusal names nothing of it", async () => {
    const web = new WebClient(server.url);
    await web.signIn(outsider.email);
    for (const path of readable()) {
      for (const variant of ["", "/m"]) {
        const answer = await web.get(`${path.startsWith("/download") ? "" : variant}${path}`);
        assert.equal(answer.status, 403, `${variant}${path}`);
        for (const word of SECRET_WORDS) assert.ok(!answer.html.includes(word), `${path} leaks "${word}"`);
        assert.match(answer.html, /You are not a member of this group, or it does not exist\./);
      }
    }
    await assertValidHtml((await web.get(`${g}/board`)).html, "403 page");
    const missing = await web.get(`/g/1:999999/board`);
    assert.equal(missing.status, 404, "a group that does not exist");
    const neutral = (html: string) => html.replace(/Not found|Not allowed|_csrf" value="[^"]*"/g, "");
    assert.equal(
      neutral(missing.html),
      neutral((await web.get(`${g}/board`)).html),
      "the same page as for a group one may not see",
    );
  });

  it("refuses a non-member every action on the group's items, and changes nothing", async () => {
    const web = new WebClient(server.url);
    await web.signIn(outsider.email);
    await web.get("/");
    const item = `${g}/board/1:${topic.id}`;
    const posts: [string, Record<string, string>][] = [
      [`${g}/board/new`, { title: "Intruder" }],
      [`${item}/edit`, { title: "Hacked" }],
      [`${item}/release`, {}],
      [`${item}/lease`, {}],
      [`${item}/delete`, {}],
      [`${item}/lock`, {}],
      [`${item}/move`, { folder: "UNCLASSIFIED" }],
      [`${item}/trash`, {}],
      [`${item}/restore`, {}],
      [`${item}/like`, { on: "true" }],
      [`${item}/favorite`, { on: "true" }],
      [`${item}/comments`, { text: "hi" }],
      [`${item}/comments/1/like`, { on: "true" }],
      [`${item}/comments/1/favorite`, { on: "true" }],
      [`${item}/comments/1/delete`, {}],
      [`${g}/tasks/1:${task.id}/like`, { on: "true" }],
      [`${g}/events/new`, { title: "Intruder" }],
      [`${g}/events/1:${eventId}/edit`, { title: "Hacked" }],
      [`${g}/events/1:${eventId}/delete`, {}],
      [`${g}/events/1:${eventId}/answer`, { answer: "attending" }],
      [`${g}/events/1:${eventId}/like`, { on: "true" }],
      [`${g}/events/1:${eventId}/favorite`, { on: "true" }],
      [`${g}/events/1:${eventId}/comments`, { text: "hi" }],
      [`${g}/events/lists`, { list: "menus", change: "add", name: "Intruder" }],
      [`${g}/board/folders`, { change: "add", name: "Intruder" }],
      [`${g}/tasks/folders`, { change: "add", name: "Intruder" }],
      [`${g}/files/folders`, { change: "add", name: "Intruder" }],
      [`${g}/files/1:${file.id}/comments`, { text: "hi" }],
      [`${g}/files`, { title: "Intruder" }],
      [`${g}/files/1:${file.id}/versions`, { comment: "v2" }],
      [`${g}/files/1:${file.id}/move`, { folder: "" }],
      [`${g}/files/1:${file.id}/trash`, {}],
      [`${g}/files/1:${file.id}/restore`, {}],
      [`${g}/files/1:${file.id}/delete`, {}],
      ["/settings/notify", { group: `1:${secret.id}`, notify: "false" }],
      [`${g}/members/invite`, { email: "intruder@example.com" }],
      [`${g}/members/1:1/resend`, {}],
      [`${g}/members/1:1/claim`, { email: "intruder@example.com" }],
      ["/settings/group-mail", { group: `1:${secret.id}`, mail: "off" }],
      [`${g}/mail`, { mail: "off" }],
      [`${g}/read-all`, { back: "board" }],
    ];
    for (const [path, fields] of posts) {
      const answer = await web.post(path, fields);
      assert.equal(answer.status, 403, path);
      for (const word of SECRET_WORDS) assert.ok(!answer.html.includes(word), `${path} leaks "${word}"`);
    }
    const after = await server.store.read(async (tx) => ({
      topic: await tx.topics.findById(topic.id),
      comments: await tx.comments.count({ kind: "BOARD", groupId: secret.id, id: topic.id }, {}),
      likes: await tx.likes.likers({ kind: "BOARD", id: topic.id }),
      lease: await tx.leases.find(topic.id),
      topics: (await tx.topics.list(secret.id, { kind: "all" }, { offset: 0, limit: 10 })).length,
      trashed: (await tx.topics.list(secret.id, { kind: "trash" }, { offset: 0, limit: 10 })).length,
      membership: await tx.memberships.findJoined(secret.id, alice.id),
      file: await tx.files.findById(file.id),
      files: (await tx.files.list(secret.id, { kind: "all" }, { offset: 0, limit: 10 })).length,
    }));
    assert.deepEqual([after.file?.trashed, after.file?.current.number, after.files], [false, 1, 1]);
    assert.deepEqual([...(await server.store.read((tx) => tx.mailSettings.groupsOff(outsider.id)))], []);
    assert.equal(after.topic?.title, "Launch codes");
    const event = await server.store.read((tx) => tx.events.findById(eventId));
    assert.equal(event?.title, "Launch codes", "the event is untouched");
    assert.equal(after.comments, 1);
    assert.deepEqual(after.likes, []);
    assert.equal(after.lease, undefined);
    assert.equal(after.topics, 1);
    assert.equal(after.trashed, 0);
  });

  it("does not let an item be reached through another group's address", async () => {
    const web = new WebClient(server.url);
    await web.signIn(outsider.email);
    // Oscar is a member of his own group: the topic of the secret group under his group's path is not found.
    for (const path of [
      `/g/1:${mine.id}/board/1:${topic.id}`,
      `/g/1:${mine.id}/tasks/1:${task.id}`,
      `/g/1:${mine.id}/files/1:${file.id}`,
      `/g/1:${mine.id}/events/1:${eventId}`,
      `/g/1:${mine.id}/events/1:${eventId}/edit`,
    ]) {
      const answer = await web.get(path);
      assert.equal(answer.status, 404, path);
      for (const word of SECRET_WORDS) assert.ok(!answer.html.includes(word), `${path} leaks "${word}"`);
    }
    await web.get(`/g/1:${mine.id}/board`);
    const like = await web.post(`/g/1:${mine.id}/board/1:${topic.id}/like`, { on: "true" });
    assert.equal(like.status, 404);
    await web.get(`/g/1:${mine.id}/board`);
    const trash = await web.post(`/g/1:${mine.id}/files/1:${file.id}/trash`);
    assert.equal(trash.status, 404);
    assert.equal((await server.store.read((tx) => tx.files.findById(file.id)))?.trashed, false);
  });

  it("answers anyone but its owner 404 on a personal event's pages and forms, as for an unknown id", async () => {
    const web = new WebClient(server.url);
    await web.signIn(bob.email);
    const path = `/schedule/1:${personalId}`;
    const unknown = await web.get("/schedule/1:999999");
    assert.equal(unknown.status, 404);
    for (const url of [path, `${path}/edit`, `/m${path}`, `/m${path}/edit`]) {
      const answer = await web.get(url);
      assert.equal(answer.status, 404, url);
      for (const word of SECRET_WORDS) assert.ok(!answer.html.includes(word), `${url} leaks "${word}"`);
    }
    await web.get("/schedule");
    for (const url of [`${path}/edit`, `${path}/delete`]) {
      const answer = await web.post(url, { title: "Hacked", startDate: "2026-04-08", startTime: "09:00" });
      assert.equal(answer.status, 404, url);
    }
    const event = await server.store.read((tx) => tx.personalEvents.findById(personalId));
    assert.equal(event?.title, "Launch codes", "the personal event is untouched");
    const owner = new WebClient(server.url);
    await owner.signIn(alice.email);
    assert.equal((await owner.get(path)).status, 200);
    assert.equal((await owner.get(`/m${path}`)).status, 200);
  });

  it("lets members in, and only authors and managers delete", async () => {
    const web = new WebClient(server.url);
    await web.signIn(bob.email);
    const managersOnly = (p: string) =>
      p.endsWith("/edit") || p.endsWith("/events/lists") || p.endsWith("/audit") || p === `${g}/export`;
    for (const path of readable().filter((p) => !managersOnly(p) && !p.includes("ATTACHMENT")))
      assert.equal((await web.get(path)).status, 200, path);
    assert.equal((await web.get(`${g}/events/lists`)).status, 403, "menus and facilities are the managers'");
    assert.equal((await web.get(`${g}/audit`)).status, 403, "the group's audit log is the managers'");
    assert.equal((await web.get(`${g}/export`)).status, 403, "the group's archive is the managers'");
    const page = await web.get(`${g}/board/1:${topic.id}`);
    assert.doesNotMatch(page.html, /Delete topic/, "bob is neither author nor manager");
    assert.doesNotMatch(page.html, />Edit</, "shared editing is off");
    assert.doesNotMatch(page.html, /comments\/1\/delete/);
    assert.equal((await web.get(`${g}/board/1:${topic.id}/edit`)).status, 403);
    assert.equal((await web.post(`${g}/board/1:${topic.id}/delete`)).status, 403);
    await web.get(`${g}/board/1:${topic.id}`);
    assert.equal((await web.post(`${g}/board/1:${topic.id}/comments/1/delete`)).status, 403);
    assert.ok(await server.store.read((tx) => tx.topics.findById(topic.id)));
  });

  it("answers the signed-out: pages send to sign-in, forms and downloads are refused", async () => {
    for (const path of [
      ...readable(),
      "/",
      "/unread",
      "/favorites",
      "/settings",
      "/schedule/new",
      `/schedule/1:${personalId}`,
      `/schedule/1:${personalId}/edit`,
    ]) {
      const answer = await fetch(`${server.url}${path}`, { redirect: "manual" });
      assert.equal(answer.status, 303, path);
      assert.match(answer.headers.get("location") ?? "", /^\/signin\?next=/);
    }
    const post = await fetch(`${server.url}${g}/board/1:${topic.id}/like`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      body: "on=true",
      redirect: "manual",
    });
    assert.equal(post.status, 403);
    assert.match(await post.text(), /Your session has ended/);
    assert.deepEqual(await server.store.read((tx) => tx.likes.likers({ kind: "BOARD", id: topic.id })), []);
    // What the reader has seen and their zone: nothing without a session.
    for (const [path, body] of [
      [`${g}/read-all`, "back=board"],
      ["/account/zone-offer", "decision=switch&timeZone=Asia%2FTokyo&next=%2F"],
    ] as const) {
      const refused = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
        redirect: "manual",
      });
      assert.equal(refused.status, 403, path);
    }
    // A token (API client) opens no page: pages use the session only.
    const withToken = await fetch(`${server.url}${g}/board`, {
      headers: { authorization: `Bearer ${alice.token}` },
      redirect: "manual",
    });
    assert.equal(withToken.status, 303);
  });
});
