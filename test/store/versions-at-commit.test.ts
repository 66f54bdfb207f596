// PostgreSQL moves a group's change version at commit (migration 0016), so writers to one group
// in different processes do not queue on its version row: while one holds a write transaction
// open, another's write to the same group commits. The versions still move once per committed
// transaction, and a transaction's bump is seen only with its data. Two pools stand for two
// processes. SQLite runs one write transaction at a time by design: PostgreSQL only.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { openPostgresStore } from "../../src/store/postgres/open.js";
import type { Store, Tx } from "../../src/store/store.js";
import { type TestStore, openTestStore, testBackends } from "../support/backends.js";
import { TestClock } from "../support/clock.js";
import { Factories, type TestUser } from "../support/factories.js";

/** How long the first writer keeps its transaction open at most, waiting for the second to commit. */
const HOLD_MS = 500;

describe(
  "change versions at commit [postgres]",
  { skip: testBackends().includes("postgres") ? false : "PostgreSQL absent: set KAIRAN_TEST_DATABASE_URL" },
  () => {
    let opened: TestStore;
    let first: Store;
    let second: Store;
    let alice: TestUser;
    let group: Group;
    const clock = new TestClock();

    before(async () => {
      opened = await openTestStore("postgres");
      first = opened.store;
      const config = opened.storeConfig;
      if (config.kind !== "postgres") throw new Error("a PostgreSQL store was asked for");
      second = openPostgresStore({ url: config.url });
      const f = new Factories(first, clock);
      alice = await f.user();
      group = await f.group([alice]);
    });
    after(async () => {
      await second?.close();
      await opened?.close();
    });

    const insertTopic = (tx: Tx, title: string) =>
      tx.topics.insert({
        groupId: group.id,
        title,
        body: "",
        authorId: alice.id,
        folderId: null,
        allowEdit: false,
        fastNotify: false,
        trashed: false,
        at: clock.now(),
      });
    const titles = async (store: Store) =>
      (await store.read((tx) => tx.topics.list(group.id, { kind: "all" }, { offset: 0, limit: 50 }))).map(
        (t) => t.title,
      );

    it("commits a second process's write to the group while the first holds its own open", async () => {
      const start = await second.viewVersion(alice.id);
      let firstWrote!: () => void;
      const wrote = new Promise<void>((resolve) => (firstWrote = resolve));
      let secondCommitted!: () => void;
      const committed = new Promise<void>((resolve) => (secondCommitted = resolve));
      const seen: { secondCommittedFirst?: boolean; versionMeanwhile?: number; titlesMeanwhile?: string[] } = {};

      const holding = first.transaction(async (tx) => {
        await insertTopic(tx, "held open");
        firstWrote();
        // The first writer waits for the second one's commit (at most HOLD_MS): with the version
        // row locked until this commit, the second would still be waiting when the time is up.
        let timer: NodeJS.Timeout | undefined;
        seen.secondCommittedFirst = await Promise.race([
          committed.then(() => true),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), HOLD_MS))),
        ]);
        clearTimeout(timer);
        // Read through the second process while this transaction is still open.
        seen.versionMeanwhile = (await second.viewVersion(alice.id)).groupVersions;
        seen.titlesMeanwhile = await titles(second);
      });
      await wrote;
      await second.transaction((tx) => insertTopic(tx, "written meanwhile"));
      secondCommitted();
      await holding;

      assert.equal(seen.secondCommittedFirst, true, "the second write committed while the first was open");
      // The second commit moved the group once; the open transaction's write is neither seen nor counted.
      assert.equal(seen.versionMeanwhile, start.groupVersions + 1);
      assert.deepEqual(seen.titlesMeanwhile?.sort(), ["written meanwhile"]);
      const end = await second.viewVersion(alice.id);
      assert.equal(end.groupVersions, start.groupVersions + 2, "each commit moved the group once");
      assert.deepEqual((await titles(second)).sort(), ["held open", "written meanwhile"]);
    });

    it("moves nothing for a transaction that rolls back", async () => {
      const start = await first.viewVersion(alice.id);
      await assert.rejects(
        first.transaction(async (tx) => {
          await insertTopic(tx, "rolled back");
          throw new Error("give up");
        }),
        /give up/,
      );
      assert.equal((await second.viewVersion(alice.id)).groupVersions, start.groupVersions);
      assert.ok(!(await titles(second)).includes("rolled back"));
    });
  },
);
