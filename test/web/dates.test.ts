// One date format for each person's language and time zone, printed by the server on every page:
// the same moments read by someone in Tokyo (Japanese) and someone in New York (English), and by
// someone who chose no zone (the server's). All-day due dates are the same day everywhere.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { formatPair } from "../../src/domain/item-id.js";
import type { Topic } from "../../src/domain/topic.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, textOfId } from "../support/web.js";

const POSTED = Date.parse("2026-04-02T02:30:00Z");
const DUE_AT = Date.parse("2026-04-10T01:00:00Z");
const DUE_DAY = Date.parse("2026-04-10T00:00:00Z");

/** The text of the first `<time>` whose datetime is `iso` (undefined when there is none). */
function timeText(html: string, iso: string): string | undefined {
  return new RegExp(`<time datetime="${iso}">([^<]*)</time>`).exec(html)?.[1];
}

describeEachBackend("web dates in each reader's language and time zone", (backend) => {
  let server: TestServer;
  let group: Group;
  let topic: Topic;
  let tokyo: WebClient;
  let newYork: WebClient;
  let unset: WebClient;
  let g: string;

  before(async () => {
    server = await startTestServer(backend);
    const users: TestUser[] = [];
    for (const name of ["Kenji Tokyo", "Nora York", "Uma Unset", "Lee Lessee"])
      users.push(await server.factories.user({ name }));
    const [kenji, nora, uma, lee] = users as [TestUser, TestUser, TestUser, TestUser];
    await server.store.transaction(async (tx) => {
      await tx.users.update(kenji.id, { lang: "ja", timeZone: "Asia/Tokyo" });
      await tx.users.update(nora.id, { lang: "en", timeZone: "America/New_York" });
    });
    group = await server.factories.group(users);
    g = `/g/${formatPair(group.id)}`;
    server.clock.advance(POSTED - server.clock.now());
    topic = await server.factories.topic(group, kenji, { title: "Timing" });
    await server.factories.comment(topic, nora, { body: "noted" });
    await server.factories.task(group, kenji, { title: "Timed", dueAt: DUE_AT, allDay: false });
    await server.factories.task(group, kenji, { title: "All day", dueAt: DUE_DAY, allDay: true });
    await server.store.transaction((tx) =>
      tx.leases.put({ topicId: topic.id, userId: lee.id, since: POSTED, until: POSTED + 10 * 60 * 1000 }),
    );
    // Each browser asks for the other language: the account's choice wins.
    tokyo = new WebClient(server.url, "en");
    newYork = new WebClient(server.url, "ja");
    unset = new WebClient(server.url, "en");
    await tokyo.signIn(kenji.email);
    await newYork.signIn(nora.email);
    await unset.signIn(uma.email);
  });
  after(() => server.close());

  it("prints a topic's and a comment's moments in the reader's zone and language", async () => {
    const path = `${g}/board/${formatPair(topic.id)}`;
    const [jp, us, utc] = [await tokyo.get(path), await newYork.get(path), await unset.get(path)];
    assert.equal(timeText(jp.html, "2026-04-02T02:30:00Z"), "2026/04/02 11:30");
    assert.equal(timeText(us.html, "2026-04-02T02:30:00Z"), "Apr 1, 2026, 10:30 PM");
    assert.equal(timeText(utc.html, "2026-04-02T02:30:00Z"), "Apr 2, 2026, 2:30 AM", "the server's zone: UTC");
    assert.match(jp.html, /<html lang="ja">/);
    assert.match(us.html, /<html lang="en">/);
    for (const page of [jp, us, utc]) assert.doesNotMatch(page.html, /UTC</, "no UTC text for a script to rewrite");
  });

  it("prints the edit lease's end like every other time on the page", async () => {
    const path = `${g}/board/${formatPair(topic.id)}`;
    assert.equal(
      textOfId((await tokyo.get(path)).html, "edited-by"),
      "Lee Lessee さんが 2026/04/02 11:40 まで編集中です。",
    );
    assert.equal(
      textOfId((await newYork.get(path)).html, "edited-by"),
      "Lee Lessee is editing this topic until Apr 1, 2026, 10:40 PM.",
    );
  });

  it("prints due times in the reader's zone and all-day due dates as the same day everywhere", async () => {
    const [jp, us] = [await tokyo.get(`${g}/tasks`), await newYork.get(`${g}/tasks`)];
    assert.equal(timeText(jp.html, "2026-04-10T01:00:00Z"), "2026/04/10 10:00");
    assert.equal(timeText(us.html, "2026-04-10T01:00:00Z"), "Apr 9, 2026, 9:00 PM");
    assert.equal(timeText(jp.html, "2026-04-10"), "2026/04/10");
    assert.equal(timeText(us.html, "2026-04-10"), "Apr 10, 2026");
    const task = /href="([^"]+)">All day</.exec(us.html)?.[1] ?? "";
    assert.equal(timeText((await newYork.get(task)).html, "2026-04-10"), "Apr 10, 2026", "the task's page too");
  });

  it("moves every page to a newly chosen zone at once", async () => {
    await unset.get("/account");
    assert.equal((await unset.post("/account/preferences", { lang: "", timeZone: "Asia/Tokyo" })).status, 303);
    const page = await unset.get(`${g}/board`);
    assert.equal(timeText(page.html, "2026-04-02T02:30:00Z"), "Apr 2, 2026, 11:30 AM");
  });
});
