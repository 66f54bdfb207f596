import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type CalendarEvent, checkEventLists, mayEditEvent } from "../../src/domain/event.js";
import { LIMITS } from "../../src/domain/limits.js";

const code = (error: unknown) => (error as { code: string }).code;
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const lists = { participantIds: [], facilityIds: [], exceptions: [], rule: "FREQ=DAILY" };

describe("event lists", () => {
  it("names at most 1,000 participants and 100 facilities", () => {
    checkEventLists({ ...lists, participantIds: ids(LIMITS.eventParticipantsMax) });
    assert.throws(
      () => checkEventLists({ ...lists, participantIds: ids(LIMITS.eventParticipantsMax + 1) }),
      (e) => code(e) === "EVENT_TOO_MANY_PARTICIPANTS",
    );
    checkEventLists({ ...lists, facilityIds: ids(LIMITS.eventFacilitiesMax) });
    assert.throws(
      () => checkEventLists({ ...lists, facilityIds: ids(LIMITS.eventFacilitiesMax + 1) }),
      (e) => code(e) === "EVENT_TOO_MANY_FACILITIES",
    );
  });
  it("keeps at most 1,000 exceptions, each occurrence once, on repeating events only", () => {
    const cancel = (n: number) => ids(n).map((i) => ({ originalStart: i * 1000, cancelled: true as const }));
    checkEventLists({ ...lists, exceptions: cancel(LIMITS.eventExceptionsMax) });
    for (const exceptions of [cancel(LIMITS.eventExceptionsMax + 1), [...cancel(1), ...cancel(1)]])
      assert.throws(
        () => checkEventLists({ ...lists, exceptions }),
        (e) => code(e) === "EVENT_RULE_INVALID",
      );
    assert.throws(
      () => checkEventLists({ ...lists, rule: null, exceptions: cancel(1) }),
      (e) => code(e) === "EVENT_RULE_INVALID",
    );
  });
});

describe("who edits an event", () => {
  const event = { creatorId: 1, participants: [{ id: 2, name: "B" }] } as unknown as CalendarEvent;
  const member = (manager: boolean) => ({ id: 1, groupId: 1, userId: 0, manager, notify: true, joinedAt: 0 });
  it("lets the creator, the participants and the managers, nobody else", () => {
    assert.deepEqual(
      [1, 2, 3].map((userId) => mayEditEvent(event, userId, member(false))),
      [true, true, false],
    );
    assert.equal(mayEditEvent(event, 3, member(true)), true);
  });
});
