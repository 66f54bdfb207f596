// A personal event's pages under the personal calendar: its page (`/schedule/1:n`, the address
// feeds link to, at one occurrence with `?at=`), new (`/schedule/new`), edit (`.../edit`: "this
// occurrence" moves it alone, "the whole series" changes the event) and delete (`.../delete`: an
// occurrence alone is cancelled). Only the owner reaches them; to anyone else the id names
// nothing (404, as an unknown id). Writes call the same service functions as `POST /api/schedule/V2`.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import type { PersonalEvent } from "../../domain/event.js";
import type { PlacedOccurrence } from "../../domain/event-occurrence.js";
import { localDayOf, resolveEventTimes } from "../../domain/event-time.js";
import type { PersonalEventRef } from "../../domain/item-id.js";
import { queryValue } from "../../http-kit/query.js";
import {
  createPersonalEvent,
  deletePersonalEvent,
  updatePersonalEvent,
} from "../../services/schedule/personal-event.js";
import { changePersonalOccurrence, readPersonalEvent } from "../../services/schedule/personal-event-page.js";
import { dayText } from "../calendar/calendar-query.js";
import { timingChoices } from "../calendar/event-form-choices.js";
import {
  type EventFormValues,
  emptyValues,
  inputOf,
  readValues,
  valuesOf,
  whenOf,
} from "../calendar/event-form-values.js";
import { ruleInWords } from "../calendar/rule-words.js";
import { errorText } from "../i18n/i18n.js";
import { isoMoment } from "../i18n/dates.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { withQuery } from "../paging.js";
import { occurrenceAt, whenText } from "./event-view.js";
import { personalEventPath } from "./my-event-paths.js";

/** The personal event routes (each also under `/m`, as every page). */
export function registerMyEventPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/schedule/new", {
    GET: async (page) => {
      const date = queryValue(page.query, "date") ?? "";
      const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : dayText(localDayOf(web.clock.now(), page.chrome.timeZone));
      return eventForm(page, undefined, emptyValues(day, page.chrome.timeZone), undefined);
    },
    POST: (page) => saveEvent(web, page, undefined),
  });
  registerPage(app, web, "/schedule/:event", { GET: (page) => eventPage(web, page) });
  registerPage(app, web, "/schedule/:event/edit", {
    GET: async (page) => {
      const event = await readPersonalEvent(web, page.actor, { ref: refOf(page) });
      const occurrence = occurrenceAt(page, event);
      return eventForm(page, event, valuesOf(event, occurrence), occurrence);
    },
    POST: (page) => saveEvent(web, page, refOf(page)),
  });
  registerPage(app, web, "/schedule/:event/delete", {
    async POST(page) {
      const ref = refOf(page);
      const event = await readPersonalEvent(web, page.actor, { ref });
      const occurrence = page.form.get("scope") === "occurrence" ? occurrenceAt(page, event) : undefined;
      if (occurrence !== undefined)
        await changePersonalOccurrence(web, page.actor, {
          ref,
          originalStart: occurrence.originalStart,
          change: { kind: "cancel" },
        });
      else await deletePersonalEvent(web, page.actor, { ref });
      return page.redirect("/schedule");
    },
  });
}

/** The caller's personal event named by the path (another user's is not found by the service). */
function refOf(page: PageRequest): PersonalEventRef {
  return { kind: "MP_SCHEDULE", ownerId: page.actor.user.id, id: pathPair(page, "event") };
}

async function eventPage(web: WebContext, page: PageRequest) {
  const ref = refOf(page);
  const event = await readPersonalEvent(web, page.actor, { ref });
  const { chrome } = page;
  const occurrence = occurrenceAt(page, event);
  const path = personalEventPath(event.id);
  const at = occurrence === undefined ? undefined : isoMoment(occurrence.originalStart);
  return page.render("my-event", {
    title: `${event.title} · ${chrome.t("nav.schedule")}`,
    section: "schedule",
    event,
    when: whenText(chrome, event, occurrence ?? event),
    moved: occurrence?.moved ?? false,
    repetition: event.rule === null ? undefined : ruleInWords(event.rule, chrome.lang, (ms) => chrome.day(ms)),
    seriesHref: occurrence === undefined ? undefined : chrome.u(path),
    at,
    calendarHref: chrome.u(
      withQuery("/schedule", { date: dayText(localDayOf((occurrence ?? event).start, chrome.timeZone)) }),
    ),
    editHref: chrome.u(withQuery(`${path}/edit`, { at })),
    deleteHref: chrome.u(`${path}/delete`),
  });
}

async function saveEvent(web: WebContext, page: PageRequest, ref: PersonalEventRef | undefined) {
  const event = ref === undefined ? undefined : await readPersonalEvent(web, page.actor, { ref });
  const occurrence = event === undefined ? undefined : occurrenceAt(page, event);
  const values = readValues(page.form, page.chrome.timeZone);
  const defaultTimeZone = page.chrome.timeZone;
  try {
    if (ref === undefined) {
      const created = await createPersonalEvent(web, page.actor, { ...inputOf(values), defaultTimeZone });
      return page.redirect(personalEventPath(created.event.id));
    }
    if (occurrence !== undefined && page.form.get("scope") === "occurrence") {
      const { when, zone } = whenOf(values);
      await changePersonalOccurrence(web, page.actor, {
        ref,
        originalStart: occurrence.originalStart,
        change: { kind: "move", ...resolveEventTimes(when, values.allDay, zone) },
      });
      return page.redirect(withQuery(personalEventPath(ref.id), { at: isoMoment(occurrence.originalStart) }));
    }
    await updatePersonalEvent(web, page.actor, { ...inputOf(values), ref, defaultTimeZone, keepExceptions: true });
    return page.redirect(personalEventPath(ref.id));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return eventForm(page, event, values, occurrence, errorText(page.chrome.lang, error.code, error.message));
  }
}

/** The event form without a group's fields (participants, menu, facilities). */
function eventForm(
  page: PageRequest,
  event: PersonalEvent | undefined,
  values: EventFormValues,
  occurrence: PlacedOccurrence | undefined,
  error?: string,
) {
  const { chrome } = page;
  const path = event === undefined ? undefined : personalEventPath(event.id);
  const at = occurrence === undefined ? undefined : isoMoment(occurrence.originalStart);
  const heading = chrome.t(event ? "mySchedule.editTitle" : "mySchedule.newTitle");
  return page.render(
    "event-form",
    {
      title: `${heading} · ${event?.title ?? chrome.t("nav.schedule")}`,
      heading,
      section: "schedule",
      mentionSource: undefined,
      action: chrome.u(path ? withQuery(`${path}/edit`, { at }) : "/schedule/new"),
      cancelHref: chrome.u(path ? withQuery(path, { at }) : "/schedule"),
      values,
      at,
      scope: page.form.get("scope") ?? "occurrence",
      isNew: event === undefined,
      ...timingChoices(chrome, values),
      members: undefined,
      menus: [],
      facilities: [],
      error,
    },
    error === undefined ? 200 : 400,
  );
}
