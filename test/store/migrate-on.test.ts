// A database made by an earlier release (its migrations, its demo seed and a row of every other
// kind: test/fixtures/migrations/) opens with the current code: the migrations that already ran
// are not run again, the schema ends up exactly as a fresh database's, and the server reads the
// rows back and writes on top of them (ids, comment numbers and change versions continue).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { StoreConfig } from "../../src/config/config.js";
import { migrationsFor } from "../../src/store/migrations/index.js";
import { describeEachBackend, openTestStore } from "../support/backends.js";
import { EARLIER_RELEASES, rawRows, restoreEarlierDatabase, schemaOf } from "../support/earlier-database.js";
import { CLIENT_NS, atomText, entriesOf, request } from "../support/http.js";
import { confirmBody, field } from "../support/notifications.js";
import { type ExactSchema, exactPostgresSchema, exactSqliteSchema } from "../support/schema-exact.js";
import { type TestServer, startTestServer } from "../support/server.js";

/** The demo seed's users' tokens (seeds/demo.json) and what the fixtures hold. */
const ALICE = "alice-demo-token";
const BOB = "bob-demo-token";
const GROUP = "1:1";
const WELCOME = "GROUP,1:1,BOARD,1:1";

function exactSchema(config: StoreConfig): Promise<ExactSchema> {
  return config.kind === "sqlite"
    ? Promise.resolve(exactSqliteSchema(config.file))
    : exactPostgresSchema(config.url, schemaOf(config.url));
}

describeEachBackend("a database made by an earlier release migrates on", (backend) => {
  for (const release of EARLIER_RELEASES) {
    describe(release, () => {
      let server: TestServer;
      let ranBefore: Record<string, unknown>[];
      const migrationsRan = () =>
        rawRows(server.storeConfig, "select name, timestamp from kysely_migration order by name");
      const get = async (path: string, token: string) => {
        const answer = await request(`${server.url}/api/${path}`, { token });
        assert.equal(answer.status, 200, answer.text);
        return entriesOf(answer.xml);
      };
      const post = async (path: string, token: string, body: string) => {
        const answer = await request(`${server.url}/api/${path}`, { token, body });
        assert.equal(answer.status, 200, answer.text);
        return entriesOf(answer.xml);
      };

      before(async () => {
        const restore = restoreEarlierDatabase(release);
        // What the earlier release recorded, read before the current code opens (and migrates) it.
        server = await startTestServer(backend, {
          restore: async (config) => {
            await restore(config);
            ranBefore = await rawRows(config, "select name, timestamp from kysely_migration order by name");
          },
        });
      });
      after(() => server.close());

      it("runs none of the migrations again that the earlier release ran", async () => {
        assert.ok(ranBefore.length > 0, "the fixture records its migrations");
        const ran = await migrationsRan();
        assert.deepEqual(ran.slice(0, ranBefore.length), ranBefore);
        assert.deepEqual(
          ran.map((row) => row.name),
          Object.keys(migrationsFor(backend)),
        );
      });

      it("ends with exactly the schema a fresh database gets", async () => {
        const fresh = await openTestStore(backend);
        try {
          assert.deepEqual(await exactSchema(server.storeConfig), await exactSchema(fresh.storeConfig));
        } finally {
          await fresh.close();
        }
      });

      it("reads the earlier rows back: board, favorites, notifications", async () => {
        const board = await get(`board/V2?group=${GROUP}`, ALICE);
        assert.deepEqual(board.map((entry) => atomText(entry, "title")).sort(), [
          "Idea: dark mode for the web pages",
          "Release checklist",
          "Welcome to Kairan",
        ]);
        assert.deepEqual(
          (await get("star/V2", ALICE)).map((entry) => atomText(entry, "id")),
          [WELCOME],
        );
        const bobs = await get("notification/V2", BOB);
        const welcome = bobs.find((entry) => atomText(entry, "id") === WELCOME);
        assert.equal(
          welcome && field(welcome, "cbl", "confirmed"),
          "true",
          "the confirmation made by the earlier release",
        );
        assert.ok(bobs.length >= 5, `Bob's notifications: ${bobs.length}`);
      });

      it("writes on top of them: a topic, its notification, a comment numbered after the earlier ones", async () => {
        const versionBefore = await groupVersion(server.storeConfig);
        const created = await post(
          "board/V2",
          ALICE,
          `<feed ${CLIENT_NS}><cbl:operation type="insert"/><entry><cbl:group id="${GROUP}"/><title>After the upgrade</title><summary type="text">Still here</summary></entry></feed>`,
        );
        const topicId = atomText(created[0]!, "id");
        assert.match(topicId ?? "", /^GROUP,1:1,BOARD,1:(\d+)$/);
        assert.equal(topicId, "GROUP,1:1,BOARD,1:5", "the id after the earlier release's last");
        assert.ok((await groupVersion(server.storeConfig)) > versionBefore, "the triggers move the group's version");

        const unconfirmed = await get("notification/V2?unconfirmed=true", BOB);
        assert.ok(unconfirmed.some((entry) => atomText(entry, "id") === topicId));
        const notificationIds = await rawRows(
          server.storeConfig,
          `select id from notifications where item_kind = 'BOARD' and item_id = 5`,
        );
        assert.ok(Number(notificationIds[0]?.id) > 13, "no notification id handed out twice (13 was deleted)");
        const confirmed = await post("notification/V2", BOB, confirmBody([topicId!]));
        assert.deepEqual(
          confirmed.map((entry) => atomText(entry, "id")),
          [topicId],
        );

        const comment = await post(
          "comment/V2",
          BOB,
          `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${WELCOME}</id><entry><summary type="text">Third</summary></entry></feed>`,
        );
        assert.equal(atomText(comment[0]!, "id"), `${WELCOME},COMMENT,3`, "numbered after the earlier two");
      });
    });
  }
});

async function groupVersion(config: StoreConfig): Promise<number> {
  const rows = await rawRows(config, "select version from group_changes where group_id = 1");
  return Number(rows[0]?.version);
}
