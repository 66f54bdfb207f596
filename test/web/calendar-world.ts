// The world the calendar's web tests share: a server, Alice (manager) and Bob in one group,
// Carol outside it, each signed in; the group's stored events; the event form's fields; and
// the titles a month grid shows in one day cell.
import assert from "node:assert/strict";
import type { CalendarEvent } from "../../src/domain/event.js";
import type { Group } from "../../src/domain/group.js";
import type { Backend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

/** The titles a month grid shows in the cell of `date`. */
export function cellTitles(html: string, date: string): string[] {
  const cell = new RegExp(`<td class="cal-day[^"]*" data-date="${date}">([\\s\\S]*?)</td>`).exec(html);
  assert.ok(cell, `a cell for ${date}`);
  return [...(cell[1] ?? "").matchAll(/<span class="cal-title">([^<]*)<\/span>/g)].map((m) => m[1] ?? "");
}

/** The bars (events of several days) a month grid draws from the cell of `date`: title and days spanned. */
export function cellBars(html: string, date: string): { title: string; span: number }[] {
  const cell = new RegExp(`<td class="cal-day[^"]*" data-date="${date}">([\\s\\S]*?)</td>`).exec(html);
  assert.ok(cell, `a cell for ${date}`);
  return [
    ...(cell[1] ?? "").matchAll(/<li class="cal-bar cal-span-(\d)">[\s\S]*?<span class="cal-title">([^<]*)<\/span>/g),
  ].map((m) => ({ title: m[2] ?? "", span: Number(m[1]) }));
}

/** The calendar tests' server, people and helpers. */
export interface CalendarWorld {
  readonly server: TestServer;
  readonly alice: TestUser;
  readonly bob: TestUser;
  readonly carol: TestUser;
  readonly group: Group;
  /** The group's path, `/g/1:n`. */
  readonly g: string;
  readonly aliceWeb: WebClient;
  readonly bobWeb: WebClient;
  readonly carolWeb: WebClient;
  events(): Promise<CalendarEvent[]>;
  byTitle(title: string): Promise<CalendarEvent | undefined>;
  /** The event form's fields (a timed one-off event on 2026-04-08, 09:00-10:00 UTC), with `values` over them. */
  fields(values?: Record<string, string>): [string, string][];
  /** Posts the fields with the person's form token. */
  send(web: WebClient, path: string, pairs: [string, string][]): ReturnType<WebClient["postPairs"]>;
}

/** Starts the server and signs everyone in. */
export async function startCalendarWorld(backend: Backend): Promise<CalendarWorld> {
  const server = await startTestServer(backend);
  const f = server.factories;
  const alice = await f.user({ name: "Alice" });
  const bob = await f.user({ name: "Bob" });
  const carol = await f.user({ name: "Carol" });
  const group = await f.group([alice, bob], { managers: [alice] });
  await f.group([carol]);
  const g = `/g/1:${group.id}`;
  const signedIn = async (email: string) => {
    const web = new WebClient(server.url);
    await web.signIn(email);
    return web;
  };
  const events = async (): Promise<CalendarEvent[]> =>
    server.store.read(async (tx) => {
      const window = { start: Date.UTC(2026, 0, 1), end: Date.UTC(2026, 11, 31) };
      const found = await tx.events.candidates(group.id, window, { kind: "all" });
      return tx.events.findByIds(found.map((c) => c.id));
    });
  return {
    server,
    alice,
    bob,
    carol,
    group,
    g,
    aliceWeb: await signedIn(alice.email),
    bobWeb: await signedIn(bob.email),
    carolWeb: await signedIn(carol.email),
    events,
    byTitle: async (title) => (await events()).find((e) => e.title === title),
    fields: (values = {}) =>
      Object.entries({
        title: "Standup",
        memo: "Bring notes",
        startDate: "2026-04-08",
        startTime: "09:00",
        endDate: "2026-04-08",
        endTime: "10:00",
        zone: "UTC",
        repeat: "",
        interval: "1",
        ends: "never",
        until: "",
        count: "",
        menu: "",
        ...values,
      }),
    async send(web, path, pairs) {
      await web.get(`${g}/events/new`);
      return web.postPairs(path, [["_csrf", web.csrf()], ...pairs]);
    },
  };
}
