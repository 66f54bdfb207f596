// Property-based fuzzing of every endpoint in the route table over real HTTP: generated and
// mutated queries, Atom bodies, multipart streams, forms and credentials. Each answer must be a
// success or a well-formed refusal (never a 5xx), a refusal must change no row and no stored
// file, and the server must keep answering. Runs are reproducible: the seed is fixed
// (KAIRAN_FUZZ_SEED overrides it) and printed with any failure.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import fc from "fast-check";
import { hashToken } from "../../src/auth/token.js";
import { registeredEndpoints } from "../../src/http-kit/route.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { shortOrLong } from "../support/long.js";
import { type DataSnapshot, type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type GroupItems, pendingSignIn, seedGroup, seedPersonalTask } from "../support/world.js";
import { existingIds } from "./inputs/values.js";
import { CHAT_ROOM, PERSONAL_EVENT, validParameterValues } from "./inputs/query.js";
import { assertAnswerShape } from "./invariant.js";
import { buildRequest, describeRequest, fuzzSpec } from "./requests.js";
import { send } from "./send.js";

const SEED = Number(process.env.KAIRAN_FUZZ_SEED ?? 20_260_401);
const RUNS_PER_ENDPOINT = Number(process.env.KAIRAN_FUZZ_RUNS ?? shortOrLong(20, 1500));

describeEachBackend("fuzzing every endpoint of the route table", (backend) => {
  let server: TestServer;
  let owner: TestUser;
  let groups: GroupItems[];
  let signIn: { readonly token: string; readonly csrf: string };
  let personalTasks: string[];
  let snapshots: Snapshotter;
  let last: DataSnapshot;
  const tally = { inputs: 0, serverErrors: 0, refused: 0, notModified: 0 };

  before(async () => {
    server = await startTestServer(backend);
    owner = await server.factories.user({ name: "Owner" });
    const member = await server.factories.user({ name: "Member" });
    const stranger = await server.factories.user({ name: "Stranger" });
    groups = [await seedGroup(server, owner, [member], "home"), await seedGroup(server, stranger, [], "away")];
    // A second topic and task at home: a fuzzed delete of the first leaves the others to aim at.
    await server.factories.topic(groups[0]!.group, member, { title: "home second topic" });
    await seedChatRoom(server, owner, member);
    await seedPersonalEvent(server, owner);
    // Personal tasks: the owner's own (writable by them) and the member's (404 to the owner).
    personalTasks = [
      await seedPersonalTask(server, owner, "home personal task"),
      await seedPersonalTask(server, member, "member's personal task"),
    ];
    // The owner's calendar secret is the route's own placeholder: /ical/:secret/me.ics, fuzzed as
    // registered, then serves the owner's calendar (and its damaged forms probe the same route).
    await server.store.transaction((tx) =>
      tx.calendarFeeds.replace(owner.id, hashToken(":secret"), server.clock.now()),
    );
    // An incoming webhook whose secret is the route's placeholder: /hooks/:secret, fuzzed as
    // registered, posts new topics into the owner's group (random JSON, Slack-shaped or not).
    await server.store.transaction((tx) =>
      tx.incomingHooks.insert({
        secretHash: hashToken(":secret"),
        name: "Fuzz",
        creatorId: owner.id,
        target: { kind: "topic", groupId: groups[0]!.group.id },
        at: server.clock.now(),
      }),
    );
    signIn = await pendingSignIn(server, owner.consumer);
    snapshots = openSnapshotter(server);
    last = await snapshots.take();
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  it("reads a route table that holds the API and OAuth endpoints", () => {
    const urls = registeredEndpoints(server.app).map((e) => e.url);
    for (const url of [
      "/api/board/V2",
      "/api/comment/V2",
      "/api/star/V2",
      "/api/good/V2",
      "/api/gwTask/V2",
      "/oauth/token",
      // Web forms are endpoints too: the passkey forms among them.
      "/signin/passkey",
      "/signin/second-factor/passkey",
      "/account/passkeys/add",
      "/account/passkeys/remove",
      // The administration's upload of the original service's export (refused to the fuzzer's owner).
      "/admin/import",
    ])
      assert.ok(urls.includes(url), url);
  });

  it(`answers every generated request with a success or a well-formed refusal that changed nothing (${RUNS_PER_ENDPOINT} runs per endpoint, seed ${SEED})`, async (t) => {
    const ids = [
      ...existingIds(groups),
      CHAT_ROOM,
      `${CHAT_ROOM},COMMENT,1`,
      `${CHAT_ROOM},COMMENT,1,ATTACHMENT,1`,
      PERSONAL_EVENT,
      ...personalTasks,
      signIn.token,
      signIn.csrf,
    ];
    const valid = validParameterValues(groups, signIn.token);
    const material = {
      consumerKey: owner.consumer.key,
      token: owner.token,
      now: Math.floor(server.clock.now() / 1000),
    };
    // The phone pages (/m/...) run the desktop pages' handlers: fuzzing one of each pair is enough.
    const endpoints = registeredEndpoints(server.app).filter(
      (e) => e.url !== "/m" && e.url !== "/m/" && !e.url.startsWith("/m/"),
    );
    // Each feed polled twice without a query first: the cache keeps it, and a generated request for
    // the same URL with "If-None-Match: *" is answered 304 by the fast path.
    for (const endpoint of endpoints.filter((e) => e.methods.includes("GET") && e.url.startsWith("/api/")))
      for (let poll = 0; poll < 2; poll++) {
        const answer = await fetch(`${server.url}${endpoint.url}`, {
          headers: { authorization: `Bearer ${owner.token}` },
        });
        // Read to the end, or, for the live stream (which never ends), cancelled: no connection left open.
        if (answer.headers.get("content-type")?.startsWith("text/event-stream")) await answer.body?.cancel();
        else await answer.arrayBuffer();
      }
    for (const [index, endpoint] of endpoints.entries()) {
      await t.test(`${endpoint.methods.join("|")} ${endpoint.url}`, async () => {
        const property = fc.asyncProperty(fuzzSpec(endpoint, ids, valid, material), async (spec) => {
          const request = buildRequest(spec, endpoint, server, owner);
          try {
            const answer = await send(server.url, request);
            tally.inputs += 1;
            if (answer.status >= 500) tally.serverErrors += 1;
            if (answer.status === 304) tally.notModified += 1;
            const now = await snapshots.take();
            const change = describeChange(last, now);
            last = now;
            assertAnswerShape(request, answer);
            if (answer.status >= 400) {
              tally.refused += 1;
              assert.equal(change, "", `a refused request (${answer.status}) changed data: ${change}`);
            }
          } catch (error) {
            throw new Error(`${(error as Error).message}\n  request: ${describeRequest(request)}`, { cause: error });
          }
        });
        const seed = SEED + index;
        const details = await fc.check(property, { seed, numRuns: RUNS_PER_ENDPOINT });
        if (details.failed) {
          const reason =
            details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
          assert.fail(
            `fuzzing ${endpoint.url} failed after ${details.numRuns} runs (seed ${seed}, path "${details.counterexamplePath}"; ` +
              `reproduce with KAIRAN_FUZZ_SEED=${SEED}):\n${reason}`,
          );
        }
      });
    }
    t.diagnostic(
      `fuzz [${backend}]: ${tally.inputs} inputs over ${endpoints.length} endpoints, ${tally.refused} refused, ${tally.notModified} answered 304, ${tally.serverErrors} answered 5xx`,
    );
    assert.equal(tally.serverErrors, 0);
  });
});

/** Chat room 1 (CHAT_ROOM) of the owner and the member, with one message. */
async function seedChatRoom(server: TestServer, owner: TestUser, member: TestUser): Promise<void> {
  await server.store.transaction(async (tx) => {
    const at = server.clock.now();
    const roomId = await tx.chat.createRoom({
      type: "THEME",
      title: "fuzz room",
      creatorId: owner.id,
      directKey: null,
      at,
    });
    await tx.chat.addMembers(roomId, [owner.id, member.id], at);
    await tx.chat.push(roomId, owner.id, "fuzz message", at);
  });
}

/** The owner's personal event 1 (PERSONAL_EVENT), repeating weekly. */
async function seedPersonalEvent(server: TestServer, owner: TestUser): Promise<void> {
  const start = server.clock.now();
  await server.store.transaction((tx) =>
    tx.personalEvents.insert({
      ownerId: owner.id,
      title: "fuzz personal event",
      memo: "",
      start,
      end: start + 60 * 60 * 1000,
      allDay: false,
      timeZone: "UTC",
      rule: "FREQ=WEEKLY",
      seriesEnd: null,
      exceptions: [],
      at: start,
    }),
  );
}
