// A seeded workspace raises mentions as the same writes through the API do: the members a topic,
// comment, task or file memo names are notified, never the writer or an outsider.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { loadSeed } from "../../src/seed/load.js";
import { validateSeed } from "../../src/seed/validate.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

const user = (ref: string, name: string) => ({ ref, name, email: `${ref}@seed.example`, password: "pw-long-enough" });

describeEachBackend("seeded mentions", (backend) => {
  let server: TestServer;
  let ids: Record<string, number>;
  before(async () => {
    server = await startTestServer(backend);
    const seed = validateSeed({
      users: [user("ann", "Ann"), user("ben", "Ben"), user("cat", "Cat"), user("out", "Out")],
      groups: [
        {
          ref: "team",
          name: "Seeded team",
          members: [{ user: "ann" }, { user: "ben" }, { user: "cat", notify: false }],
          topics: [
            {
              ref: "t",
              title: "Kickoff",
              summary: "@Ben please, and @Out",
              author: "ann",
              comments: [{ author: "ben", text: "ok @cat @ben" }],
            },
          ],
          tasks: [{ ref: "k", title: "Chairs", summary: "@ann", author: "ben" }],
          files: [
            {
              ref: "f",
              memo: "for @Cat",
              author: "ann",
              versions: [{ fileName: "a.txt", content: "a", author: "ann" }],
            },
          ],
        },
        { ref: "other", name: "Other", members: [{ user: "out" }] },
      ],
    });
    const result = await loadSeed(server, seed);
    ids = Object.fromEntries(Object.entries(result.users).map(([ref, id]) => [ref, Number(id.split(":").pop())]));
  });
  after(() => server.close());

  const mentionsOf = (ref: string) =>
    server.store.read(async (tx) => {
      const filter = {
        unconfirmedOnly: false,
        mentions: "only",
        itemKind: null,
        groupId: null,
        hiddenGroupIds: [],
      } as const;
      const rows = await tx.mentions.listRows(ids[ref]!, filter, 100);
      return (await tx.mentions.details(rows.map((row) => row.id)))
        .map((found) => `${found.item.kind}${found.commentNumber === null ? "" : `#${found.commentNumber}`}`)
        .sort();
    });

  it("notifies the named members of the group of topics, comments, tasks and file memos", async () => {
    assert.deepEqual(await mentionsOf("ben"), ["BOARD"]);
    assert.deepEqual(await mentionsOf("cat"), ["BOARD#1", "CABINET"], "even in a group set not to notify");
    assert.deepEqual(await mentionsOf("ann"), ["TASK"]);
    assert.deepEqual(await mentionsOf("out"), [], "an outsider is never notified");
  });
});
