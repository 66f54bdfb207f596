import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseEventRule } from "../../src/domain/event-rule.js";
import { LIMITS } from "../../src/domain/limits.js";

const invalid = (text: string) =>
  assert.throws(
    () => parseEventRule(text),
    (e) => (e as { code: string }).code === "EVENT_RULE_INVALID",
    text,
  );

describe("event rules", () => {
  it("keeps the text as sent, without RRULE:", () => {
    assert.equal(parseEventRule("RRULE:INTERVAL=2;FREQ=WEEKLY;BYDAY=MO,WE").text, "INTERVAL=2;FREQ=WEEKLY;BYDAY=MO,WE");
    const rule = parseEventRule("FREQ=MONTHLY;BYDAY=1MO,-1FR;COUNT=10");
    assert.deepEqual([rule.frequency, rule.byDay, rule.count, rule.interval], ["MONTHLY", ["1MO", "-1FR"], 10, 1]);
    assert.deepEqual(parseEventRule("FREQ=YEARLY;UNTIL=20301231").until, {
      at: Date.UTC(2030, 11, 31),
      dateOnly: true,
    });
    assert.deepEqual(parseEventRule("FREQ=DAILY;UNTIL=20301231T100000Z").until, {
      at: Date.UTC(2030, 11, 31, 10),
      dateOnly: false,
    });
    assert.deepEqual(parseEventRule("FREQ=MONTHLY;BYMONTHDAY=1,-1").byMonthDay, [1, -1]);
  });
  it("accepts each frequency and refuses everything else", () => {
    for (const freq of ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]) assert.ok(parseEventRule(`FREQ=${freq}`));
    for (const text of [
      "FREQ=HOURLY",
      "INTERVAL=2",
      "FREQ=DAILY;BYHOUR=9",
      "FREQ=DAILY;BYSETPOS=1",
      "FREQ=DAILY;WKST=SU",
      "FREQ=DAILY;COUNT=2;UNTIL=20301231",
      "FREQ=DAILY;COUNT=0",
      "FREQ=DAILY;INTERVAL=-1",
      "FREQ=DAILY;FREQ=WEEKLY",
      "FREQ=WEEKLY;BYDAY=XX",
      "FREQ=WEEKLY;BYDAY=1MO",
      "FREQ=WEEKLY;BYMONTHDAY=3",
      "FREQ=MONTHLY;BYMONTHDAY=32",
      "FREQ=DAILY;UNTIL=20300230",
      "FREQ=DAILY;UNTIL=2030-12-31",
      "FREQ=DAILY;",
      "",
    ])
      invalid(text);
  });
  it("takes a text of 500 characters and refuses one of 501", () => {
    const days = `FREQ=WEEKLY;BYDAY=${Array.from({ length: 157 }, () => "MO").join(",")}`;
    const fits = `${days};INTERVAL=10`;
    const over = `${days};INTERVAL=100`;
    assert.deepEqual([fits.length, over.length], [LIMITS.eventRuleMaxChars, LIMITS.eventRuleMaxChars + 1]);
    assert.ok(parseEventRule(fits));
    invalid(over);
  });
});
