import assert from "node:assert/strict";
import { it } from "node:test";
import { LIMITS } from "../../src/domain/limits.js";
import { handleNames, localPartOf, mentionHandles, mentionSpans, mentionText } from "../../src/domain/mention.js";

const handles = (text: string) => mentionSpans(text).map((span) => span.handle);

it('reads @word, @"quoted name" and trailing punctuation; an address or a lone @ names no one', () => {
  assert.deepEqual(handles('hi @bob, @"Carol Jones" and @dave_y.'), ["bob", "Carol Jones", "dave_y"]);
  assert.deepEqual(handles('@山田 は @"山田 太郎"、@bob.smith!'), ["山田", "山田 太郎", "bob.smith"]);
  assert.deepEqual(handles('mail bob@example.com or x.@y, a @ b, @"" @"  "'), []);
  assert.deepEqual(handles("(@bob)"), ["bob"]);
  const text = "x @bob. y";
  const [span] = mentionSpans(text);
  assert.equal(text.slice(span!.start, span!.end), "@bob");
});

it("refuses a quoted name longer than the limit, and one across lines", () => {
  const long = "x".repeat(LIMITS.mentionQuotedMaxChars);
  assert.deepEqual(handles(`@"${long}"`), [long]);
  assert.deepEqual(handles(`@"${long}y"`), []);
  assert.deepEqual(handles('@"a\nb"'), []);
});

it("keeps the first distinct handles up to the limit, letter case aside", () => {
  assert.deepEqual(mentionHandles("@Bob @bob @BOB @amy"), ["Bob", "amy"]);
  const many = Array.from({ length: LIMITS.mentionsPerText + 5 }, (_, i) => `@u${i}`).join(" ");
  const kept = mentionHandles(many);
  assert.equal(kept.length, LIMITS.mentionsPerText);
  assert.equal(kept.at(-1), `u${LIMITS.mentionsPerText - 1}`);
});

it("names a member by exact name or by the local part of the address in any case", () => {
  const carol = { name: "Carol Jones", email: "CJ@example.com" };
  assert.ok(handleNames("Carol Jones", carol));
  assert.ok(!handleNames("carol jones", carol), "names are exact");
  assert.ok(handleNames("cj", carol));
  assert.ok(!handleNames("example", carol));
  assert.equal(localPartOf("a@b@c"), "a@b");
});

it("inserts the form that names the member alone", () => {
  assert.equal(mentionText({ name: "Bob", email: "b@x" }, false), "@Bob");
  assert.equal(mentionText({ name: "Carol Jones", email: "cj@x" }, false), '@"Carol Jones"');
  assert.equal(mentionText({ name: "Bob", email: "bob.b@x" }, true), "@bob.b");
  assert.equal(mentionText({ name: 'The "Boss"', email: "o'neil@x" }, false), `@"o'neil"`);
  for (const candidate of [
    { name: "山田 太郎", email: "t@x" },
    { name: "Dr. Who.", email: "w@x" },
  ]) {
    const inserted = mentionText(candidate, false);
    assert.ok(handleNames(handles(`${inserted} `)[0]!, candidate), inserted);
  }
});
