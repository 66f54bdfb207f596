import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import SQLite from "better-sqlite3";
import { runKairanHere, startServeHere } from "../support/cli-in-process.js";
import { atomText, entriesOf, nsChild, request } from "../support/http.js";
import { tempDirs } from "../support/temp-dirs.js";

const tempDir = tempDirs("kairan-gen-");

const SMALL = [
  "--users",
  "30",
  "--groups",
  "4",
  "--big-members",
  "25",
  "--members-per-group",
  "5",
  "--topics",
  "60",
  "--big-topics",
  "30",
  "--comments",
  "180",
  "--tasks",
  "12",
  "--notification-topics",
  "20",
  "--log-level",
  "warn",
];

describe("kairan generate", () => {
  it("fills an empty database that the server then serves with the generated tokens", async () => {
    const data = tempDir();
    const result = await runKairanHere(["generate", "--data", data, "--seed", "7", ...SMALL]);
    assert.equal(result.status, 0, result.stderr);
    const summary = JSON.parse(result.stdout) as {
      plan: { topics: number };
      timings: Record<string, number>;
      typical: { groupId: number; userId: number };
    };
    assert.equal(summary.plan.topics, 60);
    assert.ok(typeof summary.timings.topics === "number" && typeof summary.timings.tasks === "number");
    const server = await startServeHere(["--port", "0", "--data", data, "--no-demo", "--log-level", "warn"]);
    try {
      const answer = await request(`${server.url}/api/board/V2?group=1:1&embed-comment=true&max-results=100`, {
        token: "gen-7-3",
      });
      assert.equal(answer.status, 200, answer.text);
      const entries = entriesOf(answer.xml);
      assert.equal(entries.length, 30, "group 1 holds --big-topics topics");
      assert.equal(atomText(entries[0]!, "title"), "Topic 30", "newest first");
      assert.equal((answer.text.match(/<entry cbl:sequence=/g) ?? []).length, 90, "3 comments per topic, embedded");
      const outsider = await request(`${server.url}/api/board/V2?group=1:1`, { token: "gen-7-30" });
      assert.equal(outsider.status, 403, "users beyond --big-members are not members of group 1");
      await assertGeneratedNotifications(server.url);
      await assertGeneratedTasks(server.url);
      for (const group of [1, summary.typical.groupId]) {
        const board = await request(`${server.url}/api/board/V2?group=1:${group}`, {
          token: `gen-7-${summary.typical.userId}`,
        });
        assert.equal(board.status, 200, `the typical member reads group ${group}`);
      }
    } finally {
      await server.stop();
    }
  });

  it("is reproducible from the seed, and refuses a database that is not empty", async () => {
    const [a, b, c] = [tempDir(), tempDir(), tempDir()];
    assert.equal((await runKairanHere(["generate", "--data", a, "--seed", "3", ...SMALL])).status, 0);
    assert.equal((await runKairanHere(["generate", "--data", b, "--seed", "3", ...SMALL])).status, 0);
    assert.equal((await runKairanHere(["generate", "--data", c, "--seed", "4", ...SMALL])).status, 0);
    const dump = (dir: string) => JSON.stringify(runSql(dir));
    assert.equal(dump(a), dump(b));
    assert.notEqual(dump(a), dump(c));
    const again = await runKairanHere(["generate", "--data", a, ...SMALL]);
    assert.equal(again.status, 2);
    assert.match(again.stderr, /not empty/);
  });

  it("makes group events around a given day that the event list then serves", async () => {
    const data = tempDir();
    const events = ["--events", "100", "--big-events", "40", "--events-around", "2026-06-15"];
    const result = await runKairanHere(["generate", "--data", data, "--seed", "7", ...SMALL, ...events]);
    assert.equal(result.status, 0, result.stderr);
    const summary = JSON.parse(result.stdout) as {
      plan: { events: number; bigGroupEvents: number; eventsAround: number };
      timings: Record<string, number>;
    };
    assert.deepEqual(
      [summary.plan.events, summary.plan.bigGroupEvents, summary.plan.eventsAround],
      [100, 40, Date.UTC(2026, 5, 15)],
    );
    assert.ok(typeof summary.timings.events === "number" && typeof summary.timings.analyze === "number");
    const server = await startServeHere(["--port", "0", "--data", data, "--no-demo", "--log-level", "warn"]);
    try {
      const year = "term-start=2026-01-01T00:00:00Z&term-end=2027-01-01T00:00:00Z";
      const answer = await request(`${server.url}/api/gwSchedule/V2?group=1:1&${year}&max-results=100`, {
        token: "gen-7-3",
      });
      assert.equal(answer.status, 200, answer.text);
      const total = Number(/<cbl:totalCount>(\d+)</.exec(answer.text)?.[1]);
      assert.ok(total >= 35 && total <= 40, `${total} of group 1's 40 events meet 2026`);
      assert.ok(answer.text.includes("<cblSch:recurrence>"), "some repeat");
    } finally {
      await server.stop();
    }
  });

  it("rejects bad numbers with usage", async () => {
    const result = await runKairanHere(["generate", "--data", tempDir(), "--topics=-1"]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--topics must be an integer/);
    assert.match(
      (await runKairanHere(["generate", "--data", tempDir(), "--tasks=-1"])).stderr,
      /--tasks must be an integer from 0/,
    );
    assert.match((await runKairanHere(["generate", "--help"])).stdout, /Usage: kairan generate/);
    for (const [args, message] of [
      [["--events=-1"], /--events must be an integer from 0/],
      [["--events", "10", "--big-events", "11"], /--big-events must be an integer from 0 to 10/],
      [["--events-around", "2026-02-30"], /--events-around must be a date YYYY-MM-DD/],
      [["--events-around", "2100-01-01"], /--events-around must be a date/],
      [["--groups", "1", "--events", "10", "--big-events", "9"], /with one group, --big-events must equal --events/],
    ] as const) {
      const refused = await runKairanHere(["generate", "--data", tempDir(), ...args]);
      assert.equal(refused.status, 2, args.join(" "));
      assert.match(refused.stderr, message);
    }
  });
});

/**
 * Notifications to match: user 3 has one of each of group 1's 20 newest topics that others wrote,
 * counting their 3 comments until confirmed, and the comment feed agrees.
 */
async function assertGeneratedNotifications(url: string): Promise<void> {
  const token = "gen-7-3";
  const answer = await request(`${url}/api/notification/V2?group=1:1&category=BOARD&max-results=100`, { token });
  assert.equal(answer.status, 200, answer.text);
  const entries = entriesOf(answer.xml);
  assert.ok(entries.length > 10 && entries.length <= 20, `${entries.length} notifications of the 20 newest topics`);
  const confirmed = entries.filter((e) => nsChild(e, "cbl", "confirmed")?.text === "true");
  const unconfirmed = entries.filter((e) => nsChild(e, "cbl", "confirmed")?.text === "false");
  assert.ok(confirmed.length > 0 && unconfirmed.length > 0, "some of each");
  for (const entry of entries) {
    const topic = Number(/BOARD,1:(\d+)$/.exec(atomText(entry, "id") ?? "")?.[1]);
    assert.ok(topic > 10 && topic <= 30, "one of the newest 20");
    assert.notEqual(atomText(nsChild(entry, "atom", "author")!, "uri"), "1:3", "never of the user's own topics");
    const isConfirmed = nsChild(entry, "cbl", "confirmed")?.text === "true";
    assert.equal(nsChild(entry, "cbl", "unconfirmedCommentCount")?.text, isConfirmed ? "0" : "3");
    assert.equal(nsChild(entry, "cblNtf", "commentId")?.text, `${atomText(entry, "id")},COMMENT,3`);
  }
  const unseen = async (entry: (typeof entries)[number]) =>
    entriesOf((await request(`${url}/api/comment/V2?entry=${atomText(entry, "id")}&unconfirmed=true`, { token })).xml)
      .length;
  assert.equal(await unseen(unconfirmed[0]!), 3);
  assert.equal(await unseen(confirmed[0]!), 0, "a confirmed notification's comments count as seen");
}

/**
 * Tasks round-robin over the 4 groups: group 1 has tasks 1, 5 and 9, numbered 1, 2, 3, newest first;
 * user 3 is notified of those that others wrote.
 */
async function assertGeneratedTasks(url: string): Promise<void> {
  const token = "gen-7-3";
  const answer = await request(`${url}/api/gwTask/V2?group=1:1`, { token });
  assert.equal(answer.status, 200, answer.text);
  const entries = entriesOf(answer.xml);
  assert.deepEqual(
    entries.map((entry) => atomText(entry, "title")),
    ["Task 9", "Task 5", "Task 1"],
  );
  assert.deepEqual(
    entries.map((entry) => nsChild(entry, "cbl", "task")?.attributes.get("sequence")),
    ["3", "2", "1"],
  );
  const others = entries
    .filter((entry) => atomText(nsChild(entry, "atom", "author")!, "uri") !== "1:3")
    .map((entry) => atomText(entry, "id"));
  const notified = entriesOf((await request(`${url}/api/notification/V2?group=1:1&category=TASK`, { token })).xml).map(
    (entry) => atomText(entry, "id"),
  );
  assert.deepEqual(notified.sort(), others.sort());
}

/** The generated rows that depend on the seed (authors, body lengths, flags, tasks, notifications). */
function runSql(dir: string): unknown {
  return {
    topics: runKairanQuery(dir, "select group_id,author_id,length(body) l,allow_edit from topics order by id"),
    tasks: runKairanQuery(
      dir,
      "select group_id,sequence,author_id,assignee_id,due_at,all_day,priority,status,length(summary) l from tasks order by id",
    ),
    notifications: runKairanQuery(
      dir,
      "select user_id,item_kind,item_id,confirmed,unconfirmed_comments from notifications order by id",
    ),
  };
}

function runKairanQuery(dir: string, query: string): unknown {
  const db = new SQLite(join(dir, "kairan.sqlite"), { readonly: true });
  try {
    return db.prepare(query).all();
  } finally {
    db.close();
  }
}
