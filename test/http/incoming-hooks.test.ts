// Incoming webhooks over real HTTP (docs/api.md "Incoming webhooks"): Slack's payload and the plain
// form make topics, comments and chat messages, answered 201 with their ids and pages; revoked and
// unknown addresses create nothing; limits, bodies and the creator's access are checked at their
// boundaries; the address's rate limit holds.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Actor } from "../../src/domain/access.js";
import type { Group } from "../../src/domain/group.js";
import { CHAT_LIMITS, HOOK_LIMITS, LIMITS } from "../../src/domain/limits.js";
import type { HookTarget } from "../../src/domain/incoming-hook.js";
import { writeRoom } from "../../src/services/chat/chat.js";
import { createHook, listHooks, removeHook } from "../../src/services/hook/incoming-hook.js";
import { removeMember } from "../../src/services/member/member-admin.js";
import type { TestUser } from "../support/factories.js";
import { describeEachBackend } from "../support/backends.js";
import { atomText, entriesOf, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

/** A Slack incoming-webhook payload as CI and monitoring tools send it (Slack's documentation's shapes). */
const SLACK_PAYLOAD = {
  text: "Build failed (fallback for notifications)",
  blocks: [
    { type: "header", text: { type: "plain_text", text: "Build #42" } },
    {
      type: "section",
      text: { type: "mrkdwn", text: "*main* failed: <https://ci.example/builds/42|see the log> &amp; retry" },
      fields: [
        { type: "mrkdwn", text: "*Branch:*\nmain" },
        { type: "mrkdwn", text: "*Author:*\nalice" },
      ],
    },
    { type: "divider" },
    { type: "context", elements: [{ type: "mrkdwn", text: "took 3m 12s" }] },
  ],
  attachments: [
    {
      fallback: "Disk 91% on db-1",
      color: "#ff0000",
      pretext: "Monitoring alert",
      title: "Disk usage high",
      title_link: "https://monitor.example/alerts/7",
      text: "db-1 /var is 91% full",
      fields: [
        { title: "Host", value: "db-1", short: true },
        { title: "Threshold", value: "90%", short: true },
      ],
    },
    { fallback: "only a fallback here" },
  ],
};

const actorOf = (user: TestUser): Actor => ({
  user: { id: user.id, name: user.name, email: user.email },
  app: { id: 0, name: "test", consumerKey: "", accessLevel: "Z" },
});

describeEachBackend("incoming webhooks", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let group: Group;
  let other: Group;
  let roomId: number;
  const ctx = () => ({ store: server.store, blobs: server.blobs, clock: server.clock });
  const hook = async (user: TestUser, target: HookTarget, name = "CI") => {
    const made = await createHook(ctx(), actorOf(user), { target, name });
    return { ...made, path: `/hooks/${made.secret}` };
  };
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(`${server.url}${path}`, {
      body: typeof body === "string" ? body : JSON.stringify(body),
      contentType: "application/json",
      headers,
    });
  const json = (answer: { text: string }) => JSON.parse(answer.text) as Record<string, unknown>;
  const assertJsonError = (answer: Awaited<ReturnType<typeof request>>, status: number, code: string) => {
    assert.equal(answer.status, status, answer.text);
    assert.match(answer.headers.get("content-type") ?? "", /^application\/json/);
    const error = json(answer).error as { code: string; message: string };
    assert.equal(error.code, code, answer.text);
    assert.ok(error.message.length > 0 && !error.message.includes("\n"), "a one-line message");
  };

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    group = await f.group([alice, bob, carol], { managers: [alice] });
    other = await f.group([alice, bob], { managers: [alice] });
    const room = await writeRoom(ctx(), actorOf(bob), {
      op: "create",
      type: "THEME",
      title: "ops",
      memberIds: [alice.id, bob.id],
    });
    roomId = room.room.id;
  });
  after(() => server.close());

  it("makes a topic of a Slack payload (blocks and legacy attachments), answered 201 with its id and page", async () => {
    const made = await hook(alice, { kind: "topic", groupId: group.id }, "Build bot");
    assert.ok(made.secret.length >= 22, "at least 128 random bits");
    const answer = await postJson(made.path, SLACK_PAYLOAD);
    assert.equal(answer.status, 201, answer.text);
    assert.match(answer.headers.get("content-type") ?? "", /^application\/json/);
    const body = json(answer);
    assert.equal(body.kind, "topic");
    assert.match(String(body.id), new RegExp(`^GROUP,1:${group.id},BOARD,1:\\d+$`));
    assert.match(String(body.url), new RegExp(`^${server.url}/`));
    const feed = await request(`${server.url}/api/board/V2?entry=${String(body.id)}`, { token: bob.token });
    assert.equal(feed.status, 200, feed.text);
    const entry = entriesOf(feed.xml)[0]!;
    assert.equal(atomText(entry, "title"), "Build #42", "the first line, without its emphasis");
    const text = atomText(entry, "summary") ?? "";
    assert.ok(text.startsWith("**Build bot**\n"), text);
    for (const expected of [
      "[see the log](https://ci.example/builds/42) & retry",
      "*Branch:*\nmain",
      "took 3m 12s",
      "Monitoring alert",
      "[Disk usage high](https://monitor.example/alerts/7)",
      "db-1 /var is 91% full",
      "**Host**: db-1",
      "**Threshold**: 90%",
      "only a fallback here",
    ])
      assert.ok(text.includes(expected), `${expected} in ${text}`);
    assert.ok(!text.includes("fallback for notifications"), "blocks are shown instead of text, as Slack does");
    // Posted as the hook's creator: the author the feeds show.
    assert.equal(
      atomText(
        entry.children.find((c) => c.local === "author")!,
        "name",
      ),
      "Alice",
    );
  });

  it("makes a chat message of Slack's plain text, and a comment of the plain {title, text} form", async () => {
    const chat = await hook(bob, { kind: "chat", roomId }, "Alerts");
    const said = await postJson(chat.path, { text: "disk <!here> at 91%" });
    assert.equal(said.status, 201, said.text);
    const message = json(said);
    assert.equal(message.kind, "chat");
    assert.match(String(message.id), new RegExp(`^MYPAGE,1:${bob.id},MP_CHAT,1:${roomId},COMMENT,\\d+$`));
    const messages = await request(`${server.url}/api/comment/V2?entry=MYPAGE,1:${bob.id},MP_CHAT,1:${roomId}`, {
      token: bob.token,
    });
    assert.equal(messages.status, 200, messages.text);
    assert.equal(atomText(entriesOf(messages.xml)[0]!, "summary"), "**Alerts**\ndisk @here at 91%");

    const topic = await server.factories.topic(group, carol, { title: "deploys" });
    const comments = await hook(alice, { kind: "comment", groupId: group.id, topicId: topic.id }, "Deployer");
    const answer = await postJson(comments.path, { title: "v1.2 deployed", text: "all green" });
    assert.equal(answer.status, 201, answer.text);
    const comment = json(answer);
    assert.equal(comment.id, `GROUP,1:${group.id},BOARD,1:${topic.id},COMMENT,1`);
    const read = await request(`${server.url}/api/comment/V2?entry=${String(comment.id)}`, { token: carol.token });
    assert.equal(atomText(entriesOf(read.xml)[0]!, "summary"), "**Deployer**\n**v1.2 deployed**\nall green");
    // Slack's older form: the JSON in a form field named payload.
    const form = await request(`${server.url}${comments.path}`, {
      body: `payload=${encodeURIComponent(JSON.stringify({ text: "from a form" }))}`,
      contentType: "application/x-www-form-urlencoded",
    });
    assert.equal(form.status, 201, form.text);
  });

  it("answers an unknown or revoked address 404 and creates nothing", async () => {
    const made = await hook(alice, { kind: "topic", groupId: group.id });
    const before = await countTopics();
    assert.equal((await postJson(made.path, { text: "one" })).status, 201);
    await removeHook(ctx(), actorOf(alice), made.hook.id);
    assertJsonError(await postJson(made.path, { text: "two" }), 404, "HOOK_NOT_FOUND");
    // A guess: the same answer, whatever its shape.
    assertJsonError(await postJson(`${made.path.slice(0, -1)}A`, { text: "x" }), 404, "HOOK_NOT_FOUND");
    assertJsonError(await postJson("/hooks/x", { text: "x" }), 404, "HOOK_NOT_FOUND");
    assert.equal(await countTopics(), before + 1, "only the post before the revocation");
    assert.equal(
      (await listHooks(ctx(), actorOf(alice), { kind: "group", groupId: group.id })).some((h) => h.id === made.hook.id),
      false,
    );
  });

  it("checks the creator's access at every post: a creator who left gets 403, nothing is made", async () => {
    const made = await hook(alice, { kind: "chat", roomId }, "Leaver");
    await writeRoom(ctx(), actorOf(alice), { op: "leave", roomId });
    assertJsonError(await postJson(made.path, { text: "still here?" }), 403, "HOOK_CREATOR_NO_ACCESS");

    const dave = await server.factories.user({ name: "Dave" });
    const team = await server.factories.group([dave, alice], { managers: [dave, alice] });
    const teamHook = await hook(dave, { kind: "topic", groupId: team.id });
    await removeMember(ctx(), { groupId: team.id, email: dave.email });
    const before = await countTopics(team.id);
    assertJsonError(await postJson(teamHook.path, { text: "x" }), 403, "HOOK_CREATOR_NO_ACCESS");
    assert.equal(await countTopics(team.id), before);
  });

  it("holds the API's limits at their boundary (title 200, message 3,000 with the label)", async () => {
    const made = await hook(alice, { kind: "topic", groupId: group.id });
    const title = (n: number) => "t".repeat(n);
    assert.equal((await postJson(made.path, { title: title(LIMITS.topicTitleMaxChars), text: "x" })).status, 201);
    assertJsonError(
      await postJson(made.path, { title: title(LIMITS.topicTitleMaxChars + 1), text: "x" }),
      400,
      "TOPIC_TITLE_TOO_LONG",
    );
    const chat = await hook(bob, { kind: "chat", roomId }, "N");
    const room = CHAT_LIMITS.messageMaxChars - "**N**\n".length;
    assert.equal((await postJson(chat.path, { text: "m".repeat(room) })).status, 201);
    assertJsonError(await postJson(chat.path, { text: "m".repeat(room + 1) }), 400, "CHAT_MESSAGE_TOO_LONG");
    const body = LIMITS.topicBodyMaxChars - "**CI**\n".length;
    assert.equal((await postJson(made.path, { title: "b", text: "b".repeat(body) })).status, 201);
    assertJsonError(await postJson(made.path, { title: "b", text: "b".repeat(body + 1) }), 400, "TOPIC_BODY_TOO_LONG");
    assertJsonError(await postJson(made.path, {}), 400, "HOOK_TEXT_REQUIRED");
    assertJsonError(await postJson(made.path, { text: 5 }), 400, "HOOK_PAYLOAD_INVALID");
    assertJsonError(await postJson(made.path, [1]), 400, "HOOK_PAYLOAD_INVALID");
    const blocks = (n: number) => ({ blocks: Array.from({ length: n }, () => ({ type: "divider" })) });
    assert.equal((await postJson(made.path, { text: "x", ...blocks(HOOK_LIMITS.blocksMax) })).status, 201);
    assertJsonError(await postJson(made.path, blocks(HOOK_LIMITS.blocksMax + 1)), 400, "HOOK_PAYLOAD_INVALID");
  });

  it("refuses bad bodies with one-line JSON errors and creates nothing", async () => {
    const made = await hook(alice, { kind: "topic", groupId: group.id });
    const before = await countTopics();
    assertJsonError(await postJson(made.path, "{not json"), 400, "HOOK_JSON_INVALID");
    assertJsonError(await postJson(made.path, ""), 400, "BODY_REQUIRED");
    const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    assertJsonError(
      await postJson(made.path, `{"text":"x","a":${deep(HOOK_LIMITS.jsonMaxDepth)}}`),
      400,
      "HOOK_JSON_TOO_DEEP",
    );
    assertJsonError(await postJson(made.path, deep(100_000)), 400, "HOOK_JSON_TOO_DEEP");
    const huge = JSON.stringify({ text: "h".repeat(HOOK_LIMITS.bodyMaxBytes) });
    assertJsonError(await postJson(made.path, huge), 413, "BODY_TOO_LARGE");
    const xml = await request(`${server.url}${made.path}`, { body: "<x/>", contentType: "application/xml" });
    assertJsonError(xml, 415, "UNSUPPORTED_MEDIA_TYPE");
    assertJsonError(await request(`${server.url}${made.path}`), 405, "METHOD_NOT_ALLOWED");
    assert.equal(await countTopics(), before);
  });

  it("checks names and places when a hook is made: a group's hook never reaches another group", async () => {
    const make = (user: TestUser, target: HookTarget, name: string) =>
      createHook(ctx(), actorOf(user), { target, name }).then(
        () => "made",
        (error: { code?: string }) => error.code,
      );
    const target = { kind: "topic", groupId: group.id } as const;
    assert.equal(await make(alice, target, "a\r\nX-Injected: 1"), "HOOK_NAME_INVALID");
    assert.equal(await make(alice, target, "**bold**"), "HOOK_NAME_INVALID");
    assert.equal(await make(alice, target, " "), "HOOK_NAME_REQUIRED");
    assert.equal(await make(alice, target, "n".repeat(HOOK_LIMITS.nameMaxChars)), "made");
    assert.equal(await make(alice, target, "n".repeat(HOOK_LIMITS.nameMaxChars + 1)), "HOOK_NAME_TOO_LONG");
    assert.equal(await make(bob, target, "not a manager"), "MANAGER_REQUIRED");
    assert.equal(await make(carol, { kind: "topic", groupId: other.id }, "stranger"), "GROUP_NOT_JOINED");
    assert.equal(await make(carol, { kind: "chat", roomId }, "not in the room"), "NOT_FOUND");
    const elsewhere = await server.factories.topic(other, alice);
    assert.equal(
      await make(alice, { kind: "comment", groupId: group.id, topicId: elsewhere.id }, "cross"),
      "TOPIC_NOT_FOUND",
      "a comment hook of group A on a topic of group B",
    );
  });

  async function countTopics(groupId = group.id): Promise<number> {
    return server.store.read(
      async (tx) => (await tx.topics.list(groupId, { kind: "all" }, { offset: 0, limit: 1000 })).length,
    );
  }
});

describeEachBackend("the rate limit of an incoming webhook's address", (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(backend, {
      limits: { noRateLimit: false, rateLimitAddress: "100", rateLimitToken: "3", rateLimitWindow: "60" },
    });
  });
  after(() => server.close());

  it("takes as many posts as a token's quota, then 429 with Retry-After", async () => {
    const alice = await server.factories.user({ name: "Alice" });
    const group = await server.factories.group([alice], { managers: [alice] });
    const ctx = { store: server.store, blobs: server.blobs, clock: server.clock };
    const { secret } = await createHook(ctx, actorOf(alice), {
      target: { kind: "topic", groupId: group.id },
      name: "R",
    });
    const post = () =>
      request(`${server.url}/hooks/${secret}`, {
        body: JSON.stringify({ text: "x" }),
        contentType: "application/json",
      });
    for (let i = 0; i < 3; i++) assert.equal((await post()).status, 201);
    const refused = await post();
    assert.equal(refused.status, 429, refused.text);
    assert.equal((JSON.parse(refused.text) as { error: { code: string } }).error.code, "RATE_LIMITED");
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  });
});
