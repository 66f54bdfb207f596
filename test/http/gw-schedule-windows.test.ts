// The speed mechanisms of the group event list (docs/architecture.md "Event windows") never show
// a stale event: an expansion kept in memory is replaced when the series, its exceptions or the
// window change, in the same millisecond as the last read (no version or time is trusted), and
// when an operator's SQL changes the row behind the server's back. One-off events and series come
// from separate queries (migration 0028): both kinds, and both sides of every bound, are listed.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { type Kysely, sql } from "kysely";
import { attribute, children } from "../../src/atom/parse.js";
import type { Group } from "../../src/domain/group.js";
import { expansions } from "../../src/services/event/expansion-cache.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import type { Database } from "../../src/store/schema.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { describeEachBackend } from "../support/backends.js";
import { postEvent } from "../support/events.js";
import type { TestUser } from "../support/factories.js";
import { type Answer, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

const APRIL = "term-start=2026-04-01T00:00:00Z&term-end=2026-05-01T00:00:00Z";
const CBL = "http://schemas.cybozulive.com/common/2010";

describeEachBackend("the group event list's kept expansions and window queries", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let operator: Kysely<Database>;
  let seriesId = "";
  const list = async (token = alice.token, window = APRIL): Promise<Answer> => {
    const answer = await request(`${server.url}/api/gwSchedule/V2?group=1:${group.id}&${window}&max-results=100`, {
      token,
    });
    assert.equal(answer.status, 200, answer.text);
    return answer;
  };
  const startsOf = (answer: Answer, title: string) => {
    const entry = entriesOf(answer.xml).find((e) => atomText(e, "title") === title);
    const recurrence = entry && nsChild(entry, "cblSch", "recurrence");
    return recurrence ? children(recurrence, CBL, "when").map((when) => attribute(when, "startTime")) : [];
  };
  const updateSeries = async (rule: string, exceptions = "") => {
    const answer = await postEvent(server.url, alice.token, {
      operation: "update",
      id: seriesId,
      title: "daily",
      start: "2026-03-30T07:00:00Z",
      end: "2026-03-30T08:00:00Z",
      extra: `<cblSch:rule>${rule}</cblSch:rule>${exceptions && `<cblSch:recurrence>${exceptions}</cblSch:recurrence>`}`,
    });
    assert.equal(answer.status, 200, answer.text);
  };

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob], { managers: [alice] });
    const config = server.storeConfig;
    operator = config.kind === "sqlite" ? openSqliteDatabase(config.file) : openPostgresDatabase({ url: config.url });
    const add = async (title: string, start: string, end: string, extra = "") => {
      const answer = await postEvent(server.url, alice.token, { groupId: group.id, title, start, end, extra });
      assert.equal(answer.status, 200, answer.text);
      return atomText(entriesOf(answer.xml)[0]!, "id")!;
    };
    seriesId = await add(
      "daily",
      "2026-03-30T07:00:00Z",
      "2026-03-30T08:00:00Z",
      "<cblSch:rule>FREQ=DAILY;COUNT=5</cblSch:rule>",
    );
    await add("ends as the window starts", "2026-03-31T23:00:00Z", "2026-04-01T00:00:00Z");
    await add("ends just inside", "2026-03-31T23:00:00Z", "2026-04-01T00:00:01Z");
    await add("long, from last year", "2025-05-01T00:00:00Z", "2026-04-02T00:00:00Z");
    await add("starts as the window ends", "2026-05-01T00:00:00Z", "2026-05-01T01:00:00Z");
    await add("last second", "2026-04-30T23:59:59Z", "2026-05-01T01:00:00Z");
    await add(
      "series ended before",
      "2026-03-01T07:00:00Z",
      "2026-03-01T08:00:00Z",
      "<cblSch:rule>FREQ=WEEKLY;UNTIL=20260325T000000Z</cblSch:rule>",
    );
  });
  after(async () => {
    await operator?.destroy();
    await server?.close();
  });

  it("lists one-off events and series meeting the window, and none that only touch it", async () => {
    const titles = entriesOf((await list()).xml).map((entry) => atomText(entry, "title"));
    assert.deepEqual(titles, ["long, from last year", "ends just inside", "daily", "last second"]);
  });

  it("answers a second reader of the same window from memory, with the same occurrences", async () => {
    const first = startsOf(await list(), "daily");
    const hits = expansions.hits;
    assert.deepEqual(startsOf(await list(bob.token), "daily"), first);
    assert.ok(expansions.hits > hits, "bob's list reused alice's expansions");
    assert.deepEqual(first, ["2026-04-01T07:00:00Z", "2026-04-02T07:00:00Z", "2026-04-03T07:00:00Z"]);
  });

  it("shows a new rule, cancelled and moved occurrences at once, the clock standing still", async () => {
    await list();
    await updateSeries(
      "FREQ=DAILY;COUNT=6",
      '<cblSch:exception startTime="2026-04-02T07:00:00Z" cancelled="true"/>' +
        '<cblSch:exception startTime="2026-04-03T07:00:00Z"/>' +
        '<cbl:when startTime="2026-04-20T09:00:00Z" endTime="2026-04-20T10:00:00Z"/>',
    );
    assert.deepEqual(startsOf(await list(), "daily"), [
      "2026-04-01T07:00:00Z",
      "2026-04-04T07:00:00Z",
      "2026-04-20T09:00:00Z",
    ]);
    await updateSeries("FREQ=DAILY;COUNT=6", '<cblSch:exception startTime="2026-04-02T07:00:00Z" cancelled="true"/>');
    assert.deepEqual(startsOf(await list(), "daily"), [
      "2026-04-01T07:00:00Z",
      "2026-04-03T07:00:00Z",
      "2026-04-04T07:00:00Z",
    ]);
  });

  it("shows a change made by an operator's SQL, which no server process sees happen", async () => {
    await list();
    const id = Number(/,GW_SCHEDULE,1:(\d+)$/.exec(seriesId)?.[1]);
    await sql`update events set rule = 'FREQ=DAILY;COUNT=3' where id = ${id}`.execute(operator);
    await sql`delete from event_exceptions where event_id = ${id}`.execute(operator);
    assert.deepEqual(startsOf(await list(), "daily"), ["2026-04-01T07:00:00Z"]);
  });

  it("expands a window never asked before", async () => {
    const window = "term-start=2026-03-31T00:00:00Z&term-end=2026-04-01T00:00:00Z";
    assert.deepEqual(startsOf(await list(alice.token, window), "daily"), ["2026-03-31T07:00:00Z"]);
  });
});
