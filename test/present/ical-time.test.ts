// The iCalendar forms of times, rules and exceptions (src/present/ical-time.ts), without a server.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { feedZoneOf, occurrenceValue, rruleProperty } from "../../src/present/ical-time.js";

const timed = (timeZone: string) => ({ allDay: false, timeZone });
const allDay = (timeZone: string) => ({ allDay: true, timeZone });

describe("calendar feed times", () => {
  it("writes UTC events as UTC values and other zones with their VTIMEZONE", () => {
    assert.equal(feedZoneOf("UTC"), undefined);
    assert.equal(feedZoneOf("Etc/UTC"), undefined);
    const berlin = feedZoneOf("Europe/Berlin");
    assert.equal(berlin?.tzid, "Europe/Berlin");
    assert.match(berlin?.vtimezone ?? "", /^BEGIN:VTIMEZONE\r\nTZID:Europe\/Berlin\r\n[\s\S]*END:VTIMEZONE$/);
    assert.equal(feedZoneOf("Not/AZone"), undefined);
  });

  it("names an occurrence in DTSTART's form: a wall clock with TZID, a UTC value, or a DATE", () => {
    const start = Date.parse("2026-04-02T07:00:00Z");
    assert.deepEqual(occurrenceValue(timed("Europe/Berlin"), start), {
      params: ";TZID=Europe/Berlin",
      value: "20260402T090000",
    });
    assert.deepEqual(occurrenceValue(timed("UTC"), start), { params: "", value: "20260402T070000Z" });
    // 00:00 of 2026-04-02 in Tokyo is 15:00Z the day before.
    assert.deepEqual(occurrenceValue(allDay("Asia/Tokyo"), Date.parse("2026-04-01T15:00:00Z")), {
      params: ";VALUE=DATE",
      value: "20260402",
    });
  });

  it("writes UNTIL as RFC 5545 wants it beside DTSTART, keeping the other parts as sent", () => {
    const rule = (text: string, timing: { allDay: boolean; timeZone: string }) =>
      rruleProperty({ ...timing, rule: text });
    assert.equal(
      rule("FREQ=WEEKLY;BYDAY=MO,TH;COUNT=5", timed("Europe/Berlin")),
      "RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=5",
    );
    assert.equal(rule("RRULE:FREQ=DAILY", timed("UTC")), "RRULE:FREQ=DAILY");
    // A date UNTIL of a timed event: the end of that day on the event's clock, in UTC (CEST: +2).
    assert.equal(rule("FREQ=DAILY;UNTIL=20260420", timed("Europe/Berlin")), "RRULE:FREQ=DAILY;UNTIL=20260420T215959Z");
    assert.equal(rule("FREQ=DAILY;UNTIL=20260420", timed("UTC")), "RRULE:FREQ=DAILY;UNTIL=20260420T235959Z");
    assert.equal(
      rule("FREQ=DAILY;UNTIL=20260420T100000Z;INTERVAL=2", timed("Asia/Tokyo")),
      "RRULE:FREQ=DAILY;UNTIL=20260420T100000Z;INTERVAL=2",
    );
    // All-day events: a DATE; a date-time UNTIL becomes its local day.
    assert.equal(rule("FREQ=YEARLY;UNTIL=20300101", allDay("Asia/Tokyo")), "RRULE:FREQ=YEARLY;UNTIL=20300101");
    assert.equal(rule("FREQ=WEEKLY;UNTIL=20260420T200000Z", allDay("Asia/Tokyo")), "RRULE:FREQ=WEEKLY;UNTIL=20260421");
  });
});
