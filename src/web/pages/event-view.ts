// An event's page (`/g/1:n/events/1:m`, the address notifications and favorites link to), at one
// occurrence of a repeating event with `?at=<its original UTC start>`.
import type { FastifyInstance } from "fastify";
import type { EventBase } from "../../domain/event.js";
import { type PlacedOccurrence, placeOccurrences } from "../../domain/event-occurrence.js";
import { localDayOf, parseUtcDateTime } from "../../domain/event-time.js";
import type { ContentRef } from "../../domain/item-id.js";
import { queryValue } from "../../http-kit/query.js";
import { readEventPage } from "../../services/event/event-page.js";
import type { Chrome } from "../chrome.js";
import { ruleInWords } from "../calendar/rule-words.js";
import { dateFormat, isoMoment } from "../i18n/dates.js";
import { html } from "../layout.js";
import { type PageRequest, type WebContext, pageNotFound, pathPair, registerPage } from "../page.js";
import { withQuery } from "../paging.js";
import { commentFeedHref, itemPath, itemSections, requestedComments } from "./item-view.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** `/g/:group/events/:event`. */
export function registerEventPage(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/events/:event", { GET: (page) => eventPage(web, page) });
}

/** The event's id from the path. */
export function eventRefOf(page: PageRequest): ContentRef {
  return { kind: "GW_SCHEDULE", groupId: pathPair(page, "group"), id: pathPair(page, "event") };
}

/** The occurrence `?at=` names (its original start), undefined without `?at=`. @throws NotFoundError PAGE_NOT_FOUND */
export function occurrenceAt(page: PageRequest, event: EventBase): PlacedOccurrence | undefined {
  const text = queryValue(page.query, "at") ?? page.form.get("at") ?? "";
  if (text === "" || event.rule === null) return undefined;
  const at = parseUtcDateTime(text);
  if (at === undefined) throw pageNotFound();
  const moved = event.exceptions.find((exception) => exception.originalStart === at);
  const window = moved && !moved.cancelled ? moved : { start: at, end: at + Math.max(1, event.end - event.start) };
  const found = placeOccurrences(event, window, 1000).find((occurrence) => occurrence.originalStart === at);
  if (found === undefined) throw pageNotFound();
  return found;
}

/** When an occurrence happens, in the reader's zone (all-day: its dates), and in the event's own zone when it differs. */
export function whenText(chrome: Chrome, event: EventBase, times: { start: number; end: number }) {
  if (event.allDay) {
    const first = localDayOf(times.start, event.timeZone);
    const last = localDayOf(times.end - 1, event.timeZone);
    const days =
      first === last ? chrome.dayTag(first).value : html`${chrome.dayTag(first)} – ${chrome.dayTag(last)}`.value;
    return { reader: days, own: undefined };
  }
  const reader = html`${chrome.timeTag(times.start)} – ${chrome.timeTag(times.end)}`.value;
  if (event.timeZone === chrome.timeZone) return { reader, own: undefined };
  const own = dateFormat(chrome.lang, event.timeZone);
  return { reader, own: `${own.moment(times.start)} – ${own.moment(times.end)} (${event.timeZone})` };
}

async function eventPage(web: WebContext, page: PageRequest) {
  const ref = eventRefOf(page);
  const { request, window } = requestedComments(page);
  const view = await readEventPage(web, page.actor, { ref, page: window });
  const { event } = view;
  const { chrome } = page;
  const occurrence = occurrenceAt(page, event);
  const path = itemPath(ref);
  const at = occurrence === undefined ? undefined : isoMoment(occurrence.originalStart);
  return page.render("event", {
    title: `${event.title} · ${view.group.name}`,
    group: view.group,
    area: "events",
    feed: { title: event.title, href: commentFeedHref(web.baseUrl(), ref) },
    event,
    when: whenText(chrome, event, occurrence ?? event),
    moved: occurrence?.moved ?? false,
    repetition: event.rule === null ? undefined : ruleInWords(event.rule, chrome.lang, (ms) => chrome.day(ms)),
    seriesHref: occurrence === undefined ? undefined : chrome.u(path),
    at,
    calendarHref: chrome.u(
      withQuery(`/g/${chrome.pair(ref.groupId)}/events`, {
        date: new Date(localDayOf((occurrence ?? event).start, chrome.timeZone)).toISOString().slice(0, 10),
      }),
    ),
    actions: view.mayEdit
      ? {
          edit: chrome.u(withQuery(`${path}/edit`, { at })),
          delete: chrome.u(`${path}/delete`),
        }
      : undefined,
    lengthDays: Math.round((event.end - event.start) / DAY_MS),
    ...itemSections(page, ref, view, request),
  });
}
