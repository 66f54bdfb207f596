// The expansion cache (services/event/expansion-cache.ts) and the kept `cbl:when` text of its answers
// (present/event.ts). The rule both depend on: an entry is keyed by every input of expandEvent,
// so a change of any of them is a new expansion; kept answers are frozen, so their text can be
// kept too.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CalendarEvent } from "../../src/domain/event.js";
import type { Group } from "../../src/domain/group.js";
import { type Occurrence, expandEvent } from "../../src/domain/recurrence.js";
import { eventEntry } from "../../src/present/event.js";
import { ExpansionCache, type ExpansionInput } from "../../src/services/event/expansion-cache.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 3, 1, 8);
const SERIES: ExpansionInput = {
  start: START,
  end: START + HOUR,
  allDay: false,
  timeZone: "Europe/Berlin",
  rule: "FREQ=DAILY",
  exceptions: [],
};
const WINDOW = { start: Date.UTC(2026, 3, 1), end: Date.UTC(2026, 4, 1) };
const shifted = (days: number) => ({ start: WINDOW.start + days * DAY, end: WINDOW.end + days * DAY });

describe("the expansion cache", () => {
  it("answers the same inputs from memory with the very same frozen expansion", () => {
    const cache = new ExpansionCache();
    const first = cache.expand(SERIES, WINDOW);
    assert.deepEqual(first, expandEvent(SERIES, WINDOW));
    assert.equal(cache.expand({ ...SERIES }, { ...WINDOW }), first, "equal inputs in other objects");
    assert.deepEqual([cache.hits, cache.misses], [1, 1]);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.occurrences) && Object.isFrozen(first.occurrences[0]));
  });

  it("expands again when any input changes: every field of the event, its exceptions, the window, the limit", () => {
    const cache = new ExpansionCache();
    cache.expand(SERIES, WINDOW);
    const second = expandEvent(SERIES, WINDOW).occurrences[1]!;
    const changes: [string, ExpansionInput, typeof WINDOW, number][] = [
      ["start", { ...SERIES, start: START + HOUR, end: START + 2 * HOUR }, WINDOW, 100],
      ["end", { ...SERIES, end: START + 2 * HOUR }, WINDOW, 100],
      [
        "all-day",
        { ...SERIES, allDay: true, start: Date.UTC(2026, 2, 31, 22), end: Date.UTC(2026, 3, 1, 22) },
        WINDOW,
        100,
      ],
      ["time zone", { ...SERIES, timeZone: "Asia/Tokyo" }, WINDOW, 100],
      ["rule", { ...SERIES, rule: "FREQ=DAILY;INTERVAL=2" }, WINDOW, 100],
      ["cancelled", { ...SERIES, exceptions: [{ originalStart: second.start, cancelled: true }] }, WINDOW, 100],
      [
        "moved",
        {
          ...SERIES,
          exceptions: [
            { originalStart: second.start, cancelled: false, start: second.start + HOUR, end: second.end + HOUR },
          ],
        },
        WINDOW,
        100,
      ],
      [
        "moved elsewhere",
        {
          ...SERIES,
          exceptions: [
            {
              originalStart: second.start,
              cancelled: false,
              start: second.start + 2 * HOUR,
              end: second.end + 2 * HOUR,
            },
          ],
        },
        WINDOW,
        100,
      ],
      ["window", SERIES, { start: WINDOW.start + DAY, end: WINDOW.end }, 100],
      ["limit", SERIES, WINDOW, 3],
    ];
    for (const [name, event, window, limit] of changes) {
      const misses = cache.misses;
      assert.deepEqual(cache.expand(event, window, limit), expandEvent(event, window, limit), name);
      assert.equal(cache.misses, misses + 1, `${name}: a new expansion`);
    }
  });

  it("holds at most its capacity in bytes, the oldest entries going first", () => {
    const later = (days: number) => ({ start: WINDOW.start + days * DAY, end: WINDOW.end });
    const sizing = new ExpansionCache();
    sizing.expand(SERIES, WINDOW); // 30 occurrences
    sizing.expand(SERIES, later(1)); // 29
    const two = sizing.bytes;
    assert.ok(two > 59 * 48, `${two} bytes count the occurrences`);
    const cache = new ExpansionCache(two + 10);
    cache.expand(SERIES, WINDOW);
    cache.expand(SERIES, later(1));
    assert.deepEqual([cache.size, cache.bytes], [2, two]);
    cache.expand(SERIES, later(2)); // 28: the first goes
    assert.equal(cache.size, 2);
    assert.ok(cache.bytes <= two + 10);
    const misses = cache.misses;
    cache.expand(SERIES, WINDOW);
    assert.equal(cache.misses, misses + 1, "the oldest was dropped");
    const tiny = new ExpansionCache(100);
    assert.equal(tiny.expand(SERIES, WINDOW).occurrences.length, 30, "too large to keep, still answered");
    assert.equal(tiny.size, 0);
  });

  it("counts the keys too: many first occurrences do not hold more than the capacity", () => {
    const cache = new ExpansionCache(50_000);
    for (let day = 0; day < 300; day++) cache.expand(SERIES, shifted(day), 1);
    // Without its key of about 85 bytes an entry would cost 184, and 271 would fit.
    assert.ok(cache.bytes <= 50_000 && cache.size < 190, `${cache.size} entries, ${cache.bytes} bytes`);
  });

  it("passes one-off events through without keeping them", () => {
    const cache = new ExpansionCache();
    const once = { ...SERIES, rule: null };
    assert.deepEqual(cache.expand(once, WINDOW), { occurrences: [{ start: START, end: START + HOUR }] });
    assert.deepEqual([cache.size, cache.hits, cache.misses], [0, 0, 0]);
  });
});

describe("the kept cbl:when text of an expansion", () => {
  const event: CalendarEvent = {
    ...SERIES,
    rule: "FREQ=DAILY",
    id: 1,
    groupId: 1,
    creatorId: 1,
    creatorName: "A",
    title: "t",
    memo: "",
    menuId: null,
    menuName: null,
    participants: [],
    facilities: [],
    createdAt: START,
    updatedAt: START,
  };
  const group: Group = {
    id: 1,
    name: "G",
    summary: "",
    createdAt: 0,
    updatedAt: 0,
    archivedAt: null,
    membersManageFolders: false,
  };
  const write = (occurrences: readonly Occurrence[]) =>
    eventEntry("http://k", group, { event, shown: occurrences[0]!, occurrences }, undefined);

  it("is kept only for a frozen array, so an array that changes is written as it is now", () => {
    const occurrences: Occurrence[] = [{ start: START, end: START + HOUR }];
    const before = write(occurrences);
    occurrences[0] = { start: START + DAY, end: START + DAY + HOUR };
    const after = write(occurrences);
    assert.notEqual(after, before);
    assert.match(after, /startTime="2026-04-02T08:00:00Z"/);
  });

  it("writes a frozen array's text once and the same bytes every time", () => {
    const cache = new ExpansionCache();
    const { occurrences } = cache.expand(SERIES, WINDOW);
    assert.equal(write([...occurrences]), write(occurrences));
    assert.equal(write(occurrences), write([...occurrences]));
  });
});
