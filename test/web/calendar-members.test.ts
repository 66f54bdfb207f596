// The group week view (`/g/:group/events?view=members`): members in rows, the week's days in
// columns; each member's events of this group with their titles, anything else only as busy time.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { assertValidHtml } from "../support/web.js";
import { type CalendarWorld, startCalendarWorld } from "./calendar-world.js";

/** The entries of one member's cell on `date`: titles, or "Busy" for hidden ones. */
function memberCell(html: string, member: string, date: string): string[] {
  const row = new RegExp(`<th scope="row" class="cal-member">${member}</th>([\\s\\S]*?)</tr>`).exec(html);
  assert.ok(row, `a row for ${member}`);
  const cell = new RegExp(`<td class="cal-day[^"]*" data-date="${date}">([\\s\\S]*?)</td>`).exec(row[1] ?? "");
  assert.ok(cell, `a cell for ${member} on ${date}`);
  return [...(cell[1] ?? "").matchAll(/<span class="(?:cal-title|cal-busy-label)">([^<]*)<\/span>/g)].map(
    (m) => m[1] ?? "",
  );
}

describeEachBackend("web pages: the group week view", (backend) => {
  let w: CalendarWorld;
  const personal = async (web: CalendarWorld["aliceWeb"], values: Record<string, string>) => {
    await web.get("/schedule/new");
    return web.postPairs("/schedule/new", [["_csrf", web.csrf()], ...w.fields(values)]);
  };
  before(async () => {
    w = await startCalendarWorld(backend);
  });
  after(() => w.server.close());

  it("shows each member's group events with titles and another member's own events only as busy", async () => {
    assert.equal((await w.send(w.aliceWeb, `${w.g}/events/new`, w.fields({ title: "Standup" }))).status, 303);
    await w.send(w.aliceWeb, `${w.g}/events/new`, [
      ...w.fields({ title: "Planning", startDate: "2026-04-09", endDate: "2026-04-09" }),
      ["participants", `1:${w.alice.id}`],
    ]);
    assert.equal(
      (await personal(w.bobWeb, { title: "Dentist", startDate: "2026-04-09", endDate: "2026-04-09" })).status,
      303,
    );
    // Bob's event in another group, which Alice is not in.
    const other = await w.server.factories.group([w.bob, w.carol]);
    await w.send(
      w.bobWeb,
      `/g/1:${other.id}/events/new`,
      w.fields({ title: "Secret sync", startDate: "2026-04-10", endDate: "2026-04-10" }),
    );

    const page = await w.aliceWeb.get(`${w.g}/events?view=members&date=2026-04-08`);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "group week view");
    assert.match(page.html, /<a href="[^"]*view=members[^"]*" aria-current="page">Members</, "the view switcher");
    assert.deepEqual(memberCell(page.html, "Alice", "2026-04-08"), ["Standup"]);
    assert.deepEqual(memberCell(page.html, "Bob", "2026-04-08"), ["Standup"]);
    assert.deepEqual(memberCell(page.html, "Alice", "2026-04-09"), ["Planning"]);
    assert.deepEqual(memberCell(page.html, "Bob", "2026-04-09"), ["Busy"], "Bob's personal event is busy time");
    assert.deepEqual(memberCell(page.html, "Bob", "2026-04-10"), ["Busy"], "another group's event too");
    assert.doesNotMatch(page.html, /Dentist|Secret sync/);
    assert.ok(
      page.html.indexOf('class="cal-member">Alice<') < page.html.indexOf('class="cal-member">Bob<'),
      "the reader first",
    );
    // Bob sees his own personal event with its title.
    const bobs = await w.bobWeb.get(`${w.g}/events?view=members&date=2026-04-08`);
    assert.deepEqual(memberCell(bobs.html, "Bob", "2026-04-09"), ["Dentist"]);
    assert.ok(bobs.html.indexOf('class="cal-member">Bob<') < bobs.html.indexOf('class="cal-member">Alice<'));
    // Previous, next and today keep the view.
    assert.match(page.html, /rel="next" href="[^"]*view=members&amp;date=2026-04-12"/);
    assert.match(page.html, /rel="prev" href="[^"]*view=members&amp;date=2026-03-29"/);
    // Every other view links the members view.
    const month = await w.aliceWeb.get(`${w.g}/events?date=2026-04-01`);
    assert.match(month.html, /view=members&amp;date=2026-04-01">Members</);
  });

  it("follows the reader's zone and language, and refuses outsiders and the personal calendar", async () => {
    // 09:00-10:00 UTC is 18:00-19:00 in Tokyo.
    await w.server.store.transaction((tx) => tx.users.update(w.alice.id, { timeZone: "Asia/Tokyo", lang: "ja" }));
    const page = await w.aliceWeb.get(`${w.g}/events?view=members&date=2026-04-08`);
    assert.match(page.html, /18:00–19:00/);
    assert.match(page.html, />メンバー</);
    assert.match(page.html, /予定あり/);
    await assertValidHtml(page.html, "Japanese group week view");
    await w.server.store.transaction((tx) => tx.users.update(w.alice.id, { timeZone: null, lang: null }));
    assert.equal((await w.carolWeb.get(`${w.g}/events?view=members`)).status, 403);
    assert.equal((await w.aliceWeb.get(`/schedule?view=members`)).status, 400);
  });

  it("pages members twenty at a time: twenty fit one page, the twenty-first opens a next page", async () => {
    const f = w.server.factories;
    const extra: TestUser[] = [];
    for (let n = 0; n < 18; n++) extra.push(await f.user({ name: `Member ${String(n).padStart(2, "0")}` }));
    await w.server.store.transaction(async (tx) => {
      for (const user of extra)
        await tx.memberships.insertJoined({
          groupId: w.group.id,
          userId: user.id,
          manager: false,
          notify: true,
          createdAt: 1,
        });
    });
    const twenty = await w.aliceWeb.get(`${w.g}/events?view=members&date=2026-04-08`);
    assert.equal([...twenty.html.matchAll(/class="cal-member"/g)].length, 20);
    assert.doesNotMatch(twenty.html, /More members/);
    const last = await f.user({ name: "Latecomer" });
    await w.server.store.transaction((tx) =>
      tx.memberships.insertJoined({ groupId: w.group.id, userId: last.id, manager: false, notify: true, createdAt: 2 }),
    );
    const first = await w.aliceWeb.get(`${w.g}/events?view=members&date=2026-04-08`);
    assert.equal([...first.html.matchAll(/class="cal-member"/g)].length, 20);
    assert.match(first.html, /rel="next" href="[^"]*page=2">More members/);
    const second = await w.aliceWeb.get(`${w.g}/events?view=members&date=2026-04-08&page=2`);
    assert.equal([...second.html.matchAll(/class="cal-member"/g)].length, 1);
    const names = (html: string) => [...html.matchAll(/class="cal-member">([^<]*)</g)].map((m) => m[1]);
    assert.equal(new Set([...names(first.html), ...names(second.html)]).size, 21, "each member on one page");
    assert.match(second.html, /Previous members/);
  });
});
