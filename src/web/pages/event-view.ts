// An event's page (`/g/1:n/events/1:m`, the address notifications and favorites link to), at one
// occurrence of a repeating event with `?at=<its original UTC start>`.
import type { FastifyInstance } from "fastify";
import type { CalendarEvent, EventBase } from "../../domain/event.js";
import { type PlacedOccurrence, placeOccurrences } from "../../domain/event-occurrence.js";
import { localDayOf, parseUtcDateTime } from "../../domain/event-time.js";
import type { ContentRef } from "../../domain/item-id.js";
import { queryValue } from "../../http-kit/query.js";
import { EVENT_ANSWERS } from "../../domain/event-answer.js";
import { REMINDER_MINUTES, parseReminderMinutes } from "../../domain/event-reminder.js";
import { readEventReminder, setEventReminder } from "../../services/event/event-reminder.js";
import { readEventPage } from "../../services/event/event-page.js";
import { answerEvent } from "../../services/event/event-write.js";
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
  registerPage(app, web, "/g/:group/events/:event/answer", {
    async POST(page) {
      const ref = eventRefOf(page);
      const event = await answerEvent(web, page.actor, { ref, answer: page.form.get("answer") });
      const occurrence = occurrenceAt(page, event);
      const at = occurrence === undefined ? undefined : isoMoment(occurrence.originalStart);
      return page.redirect(withQuery(itemPath(ref), { at }));
    },
  });
  registerPage(app, web, "/g/:group/events/:event/reminder", {
    async POST(page) {
      const ref = eventRefOf(page);
      const minutes = parseReminderMinutes(page.form.get("minutes") ?? "");
      await setEventReminder(web, page.actor, { ref, minutes });
      return page.redirect(withQuery(itemPath(ref), { at: page.form.get("at") || undefined }));
    },
  });
}

/** The reminder form: how long before each occurrence the reader is reminded by mail, if at all. */
function reminderFormOf(page: PageRequest, path: string, minutes: number) {
  return {
    action: page.chrome.u(`${path}/reminder`),
    choices: [0, ...REMINDER_MINUTES].map((value) => ({
      value,
      label: page.chrome.t(`events.reminder.${value}` as `events.reminder.${0 | (typeof REMINDER_MINUTES)[number]}`),
      selected: value === minutes,
    })),
  };
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

/** When an occurrence happens, in the reader's zone, named (all-day: its dates), and in the event's own zone when it differs. */
export function whenText(chrome: Chrome, event: EventBase, times: { start: number; end: number }) {
  if (event.allDay) {
    const first = localDayOf(times.start, event.timeZone);
    const last = localDayOf(times.end - 1, event.timeZone);
    const days =
      first === last ? chrome.dayTag(first).value : html`${chrome.dayTag(first)} – ${chrome.dayTag(last)}`.value;
    return { reader: days, own: undefined };
  }
  // The zone is named: a reader in another zone than the event's sees both, each with its name.
  const reader =
    html`${chrome.timeTag(times.start)} – ${chrome.timeTag(times.end)} <span class="zone-name">(${chrome.timeZone})</span>`
      .value;
  if (event.timeZone === chrome.timeZone) return { reader, own: undefined };
  const own = dateFormat(chrome.lang, event.timeZone);
  return { reader, own: `${own.moment(times.start)} – ${own.moment(times.end)} (${event.timeZone})` };
}

/** The answer form, for a participant the event names. */
function answerFormOf(page: PageRequest, event: CalendarEvent, path: string) {
  const mine = event.participants.find((person) => person.id === page.actor.user.id);
  if (mine === undefined) return undefined;
  return {
    action: page.chrome.u(`${path}/answer`),
    choices: EVENT_ANSWERS.map((value) => ({
      value,
      label: page.chrome.t(`events.answerChoice.${value}`),
      checked: mine.answer === value,
    })),
  };
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
    answerForm: answerFormOf(page, event, path),
    reminderForm: reminderFormOf(page, path, await readEventReminder(web, page.actor, ref)),
    lengthDays: Math.round((event.end - event.start) / DAY_MS),
    ...itemSections(page, ref, view, request),
  });
}
