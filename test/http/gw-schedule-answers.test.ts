// Participants' answers over the API (docs/api.md "Events", Kairan's own `cbl:operation
// type="answer"`): a participant sets their own answer, nobody sets it for them.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { CLIENT_NS, assertError, request } from "../support/http.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";

const answerBody = (eventId: string, who: string) =>
  `<feed ${CLIENT_NS}><cbl:operation type="answer"/><entry><id>${eventId}</id>${who}</entry></feed>`;

describeEachBackend("API: participants' answers to events", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let dave: TestUser;
  let carol: TestUser;
  let eventId: string;
  let numericId: number;
  const post = (token: string, body: string, headers: Record<string, string> = {}) =>
    request(`${server.url}/api/gwSchedule/V2`, { token, body, headers });
  const answers = async () =>
    (await server.store.read((tx) => tx.events.findById(numericId)))!.participants.map((p) => [p.id, p.answer]);

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    dave = await f.user({ name: "Dave" });
    carol = await f.user({ name: "Carol" });
    const group = await f.group([alice, bob, dave], { managers: [alice] });
    await f.group([carol]);
    const start = server.clock.now() + 24 * 60 * 60 * 1000;
    numericId = await server.store.transaction((tx) =>
      tx.events.insert({
        groupId: group.id,
        creatorId: alice.id,
        title: "Planning",
        memo: "",
        start,
        end: start + 60 * 60 * 1000,
        allDay: false,
        timeZone: "UTC",
        rule: null,
        seriesEnd: start + 60 * 60 * 1000,
        menuId: null,
        participantIds: [alice.id, bob.id],
        facilityIds: [],
        exceptions: [],
        at: server.clock.now(),
      }),
    );
    eventId = `GROUP,1:${group.id},GW_SCHEDULE,1:${numericId}`;
  });
  after(() => server.close());

  it("sets the caller's own answer, shown in cbl:who after valueString and id, and replaces it", async () => {
    const sent = await post(bob.token, answerBody(eventId, '<cbl:who answer="maybe"/>'));
    assert.equal(sent.status, 200, sent.text);
    assert.match(sent.text, new RegExp(`<cbl:who valueString="Bob" id="1:${bob.id}" answer="maybe"/>`));
    assert.match(sent.text, new RegExp(`<cbl:who valueString="Alice" id="1:${alice.id}"/>`), "Alice has not answered");
    const own = await post(bob.token, answerBody(eventId, `<cbl:who id="1:${bob.id}" answer=" declined "/>`));
    assert.equal(own.status, 200, own.text);
    const read = await request(`${server.url}/api/gwSchedule/V2?entry=${encodeURIComponent(eventId)}`, {
      token: alice.token,
    });
    assert.match(read.text, new RegExp(`<cbl:who valueString="Bob" id="1:${bob.id}" answer="declined"/>`));
    assert.deepEqual(await answers(), [
      [alice.id, null],
      [bob.id, "declined"],
    ]);
  });

  it("refuses an answer for someone else, from a member not named, from an outsider, and bad input, changing nothing", async () => {
    const before = await answers();
    // Alice manages the group and may edit the event, but she does not answer for Bob.
    assertError(
      await post(alice.token, answerBody(eventId, `<cbl:who id="1:${bob.id}" answer="attending"/>`)),
      403,
      "EVENT_ANSWER_NOT_YOURS",
    );
    assertError(await post(dave.token, answerBody(eventId, '<cbl:who answer="attending"/>')), 403, "NOT_A_PARTICIPANT");
    assertError(await post(carol.token, answerBody(eventId, '<cbl:who answer="attending"/>')), 403, "GROUP_NOT_JOINED");
    assertError(await post(bob.token, answerBody(eventId, '<cbl:who answer="yes"/>')), 400, "EVENT_ANSWER_INVALID");
    assertError(await post(bob.token, answerBody(eventId, "<cbl:who/>")), 400, "EVENT_ANSWER_INVALID");
    assertError(await post(bob.token, answerBody(eventId, "")), 400, "EVENT_ANSWER_INVALID");
    assertError(
      await post(bob.token, answerBody(eventId, '<cbl:who answer="maybe"/><cbl:who answer="maybe"/>')),
      400,
      "EVENT_ANSWER_INVALID",
    );
    assertError(await post(bob.token, answerBody(eventId, '<cbl:who id="bob" answer="maybe"/>')), 400, "INVALID_ID");
    assertError(await post(bob.token, answerBody(`${eventId}999`, '<cbl:who answer="maybe"/>')), 404, "NOT_FOUND");
    const stale = await post(bob.token, answerBody(eventId, '<cbl:who answer="attending"/>'), {
      "if-match": '"stale"',
    });
    assert.equal(stale.status, 412, "If-Match applies as for an update");
    assert.deepEqual(await answers(), before);
  });
});
