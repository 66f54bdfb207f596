// Chat push throughput (`npm run bench:chat`): messages a second written through
// `POST /api/comet/mpChatPush/V2` into one THEME room of 10 members, each connection pushing as a
// different member (so every message raises nine unread counts). Target: 1,000 a second on SQLite.
// The server runs in this process (the test server: real HTTP, a real database file), sharing the
// CPU with the load generator: the number is a floor. KAIRAN_TEST_DATABASE_URL runs it on PostgreSQL.
import type { TestUser } from "../test/support/factories.js";
import { startTestServer } from "../test/support/server.js";
import { measure } from "./load.js";
import type { Request } from "./scenarios.js";

const MEMBERS = 10;
const SECONDS = Number(process.env.BENCH_CHAT_SECONDS ?? 10);
const NS = 'xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010"';

/** Runs the push benchmark and prints one line. */
async function main(): Promise<void> {
  const server = await startTestServer(process.env.KAIRAN_TEST_DATABASE_URL ? "postgres" : "sqlite");
  try {
    const users: TestUser[] = [];
    for (let i = 0; i < MEMBERS; i++) users.push(await server.factories.user({ name: `Chatter ${i}` }));
    await server.factories.group(users, { name: "Bench" });
    const roomId = await server.store.transaction(async (tx) => {
      const at = server.clock.now();
      const id = await tx.chat.createRoom({
        type: "THEME",
        title: "Bench",
        creatorId: users[0]!.id,
        directKey: null,
        at,
      });
      await tx.chat.addMembers(
        id,
        users.map((user) => user.id),
        at,
      );
      return id;
    });
    const cycles: Request[][] = users.map((user) => [
      {
        method: "POST",
        path: "/api/comet/mpChatPush/V2",
        headers: { authorization: `Bearer ${user.token}`, "content-type": "application/atom+xml" },
        body: `<feed ${NS}><cbl:operation type="insert"/><id>MYPAGE,1:${user.id},MP_CHAT,1:${roomId}</id><entry><summary type="text">Build #42 passed & deployed</summary></entry></feed>`,
      },
    ]);
    const first = cycles[0]![0]!;
    const result = await measure(server.url, { ...first, expect: 200, cycles }, SECONDS, MEMBERS);
    const count = await server.store.read((tx) => tx.chat.countMessages(roomId));
    console.log(
      `chat push, ${MEMBERS}-member room, ${server.backend}: ${result.requestsPerSecond} messages/s ` +
        `(p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.failures} failures, ${count} messages stored)`,
    );
  } finally {
    await server.close();
  }
}

await main();
