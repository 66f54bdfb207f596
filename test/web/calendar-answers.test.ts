// Participants' answers (attending, maybe, declined): set by a named participant on the event's
// page, shown there and in the API's `cbl:who` (an `answer` attribute after `valueString` and `id`).
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { request } from "../support/http.js";
import { assertValidHtml } from "../support/web.js";
import { type CalendarWorld, startCalendarWorld } from "./calendar-world.js";

describeEachBackend("web pages: participants' answers to an event", (backend) => {
  let w: CalendarWorld;
  let path: string;
  const answer = (web: CalendarWorld["aliceWeb"], value: string, extra: [string, string][] = []) =>
    web.postPairs(`${path}/answer`, [["_csrf", web.csrf()], ["answer", value], ...extra]);
  before(async () => {
    w = await startCalendarWorld(backend);
    await w.send(w.aliceWeb, `${w.g}/events/new`, [
      ...w.fields({ title: "Review" }),
      ["participants", `1:${w.alice.id}`],
      ["participants", `1:${w.bob.id}`],
    ]);
    path = `${w.g}/events/1:${(await w.byTitle("Review"))!.id}`;
  });
  after(() => w.server.close());

  it("lets a participant answer on the page, shows it to everyone, and keeps it through an edit", async () => {
    const page = await w.bobWeb.get(path);
    assert.match(page.html, /<legend>Your answer<\/legend>/);
    assert.match(page.html, /<input type="radio" name="answer" value="maybe" required> Maybe/);
    await assertValidHtml(page.html, "event page with the answer form");
    const sent = await answer(w.bobWeb, "attending");
    assert.equal(sent.status, 303);
    assert.equal(sent.location, path);
    const seen = await w.aliceWeb.get(path);
    assert.match(seen.html, /<li>Bob <span class="answer answer-attending">\(attending\)<\/span><\/li>/);
    assert.match(seen.html, /<li>Alice<\/li>/, "Alice has not answered");
    const again = await w.bobWeb.get(path);
    assert.match(again.html, /value="attending" checked required/);
    // The API: the attribute after valueString and id; none for one who has not answered.
    const entryId = `GROUP,1:${w.group.id},GW_SCHEDULE,1:${(await w.byTitle("Review"))!.id}`;
    const api = await request(`${w.server.url}/api/gwSchedule/V2?entry=${encodeURIComponent(entryId)}`, {
      token: w.bob.token,
    });
    assert.equal(api.status, 200, api.text);
    assert.match(api.text, new RegExp(`<cbl:who valueString="Alice" id="1:${w.alice.id}"/>`));
    assert.match(api.text, new RegExp(`<cbl:who valueString="Bob" id="1:${w.bob.id}" answer="attending"/>`));
    // An edit of the event keeps the answers of the participants it still names.
    const edited = await w.send(w.aliceWeb, `${path}/edit`, [
      ...w.fields({ title: "Review", memo: "New notes" }),
      ["participants", `1:${w.alice.id}`],
      ["participants", `1:${w.bob.id}`],
    ]);
    assert.equal(edited.status, 303);
    assert.equal((await w.byTitle("Review"))!.participants.find((p) => p.id === w.bob.id)?.answer, "attending");
    assert.equal((await answer(w.bobWeb, "declined")).status, 303, "answering again replaces it");
    assert.equal((await w.byTitle("Review"))!.participants.find((p) => p.id === w.bob.id)?.answer, "declined");
  });

  it("refuses a bad answer, a member the event does not name and an outsider, changing nothing", async () => {
    const before = (await w.byTitle("Review"))!.participants;
    assert.equal((await answer(w.bobWeb, "yes")).status, 400);
    assert.equal((await answer(w.bobWeb, "")).status, 400);
    await w.send(w.aliceWeb, `${w.g}/events/new`, [
      ...w.fields({ title: "Alice only" }),
      ["participants", `1:${w.alice.id}`],
    ]);
    const aliceOnly = `${w.g}/events/1:${(await w.byTitle("Alice only"))!.id}`;
    const notNamed = await w.bobWeb.postPairs(`${aliceOnly}/answer`, [
      ["_csrf", w.bobWeb.csrf()],
      ["answer", "maybe"],
    ]);
    assert.equal(notNamed.status, 403);
    assert.doesNotMatch((await w.bobWeb.get(aliceOnly)).html, /Your answer/, "no form for one it does not name");
    await w.carolWeb.get("/");
    const outsider = await w.carolWeb.postPairs(`${path}/answer`, [
      ["_csrf", w.carolWeb.csrf()],
      ["answer", "maybe"],
    ]);
    assert.ok([403, 404].includes(outsider.status), String(outsider.status));
    assert.deepEqual((await w.byTitle("Review"))!.participants, before);
  });

  it("speaks Japanese", async () => {
    await w.server.store.transaction((tx) => tx.users.update(w.bob.id, { lang: "ja" }));
    const page = await w.bobWeb.get(path);
    assert.match(page.html, /<legend>あなたの出欠<\/legend>/);
    assert.match(page.html, /\(欠席\)/);
    await assertValidHtml(page.html, "Japanese event page with answers");
    await w.server.store.transaction((tx) => tx.users.update(w.bob.id, { lang: null }));
  });
});
