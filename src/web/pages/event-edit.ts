// Writing events: new (`/g/1:n/events/new`), edit (`.../1:m/edit`, at one occurrence with `?at=`:
// "this occurrence" moves it alone, "the whole series" changes the event) and delete (`/delete`,
// an occurrence alone is cancelled). The same service functions as the API's writes.
import type { FastifyInstance } from "fastify";
import { ForbiddenError, ValidationError } from "../../domain/errors.js";
import type { PlacedOccurrence } from "../../domain/event-occurrence.js";
import { resolveEventTimes } from "../../domain/event-time.js";
import { type ContentRef, formatPair } from "../../domain/item-id.js";
import { queryValue } from "../../http-kit/query.js";
import { changeOccurrence } from "../../services/event/event-occurrence.js";
import { type EventFormView, readEventForm } from "../../services/event/event-page.js";
import { createEvent, deleteEvent, updateEvent } from "../../services/event/event-write.js";
import { option, timingChoices } from "../calendar/event-form-choices.js";
import {
  type EventFormValues,
  emptyValues,
  inputOf,
  readValues,
  valuesOf,
  whenOf,
} from "../calendar/event-form-values.js";
import { dayText } from "../calendar/calendar-query.js";
import { localDayOf } from "../../domain/event-time.js";
import { errorText } from "../i18n/i18n.js";
import { isoMoment } from "../i18n/dates.js";
import { mentionSource } from "../mention-html.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { withQuery } from "../paging.js";
import { eventRefOf, occurrenceAt } from "./event-view.js";
import { itemPath } from "./item-view.js";

/** The event-writing routes. */
export function registerEventEditPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/events/new", {
    GET: async (page) => {
      const view = await readEventForm(web, page.actor, { groupId: pathPair(page, "group") });
      const date = queryValue(page.query, "date") ?? "";
      const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : dayText(localDayOf(web.clock.now(), page.chrome.timeZone));
      return eventForm(page, view, emptyValues(day, page.chrome.timeZone), undefined);
    },
    POST: (page) => saveEvent(web, page, undefined),
  });
  registerPage(app, web, "/g/:group/events/:event/edit", {
    GET: async (page) => {
      const ref = eventRefOf(page);
      const view = await editableForm(web, page, ref);
      const event = view.event as NonNullable<EventFormView["event"]>;
      const occurrence = occurrenceAt(page, event);
      return eventForm(page, view, valuesOf(event, occurrence), occurrence);
    },
    POST: (page) => saveEvent(web, page, eventRefOf(page)),
  });
  registerPage(app, web, "/g/:group/events/:event/delete", {
    async POST(page) {
      const ref = eventRefOf(page);
      const at = page.form.get("at") ?? "";
      if (page.form.get("scope") === "occurrence" && at !== "") {
        const view = await editableForm(web, page, ref);
        const occurrence = occurrenceAt(page, view.event as NonNullable<EventFormView["event"]>);
        if (occurrence !== undefined)
          await changeOccurrence(web, page.actor, {
            ref,
            originalStart: occurrence.originalStart,
            change: { kind: "cancel" },
          });
      } else await deleteEvent(web, page.actor, { ref });
      return page.redirect(`/g/${formatPair(ref.groupId)}/events`);
    },
  });
}

/** The form of an event the caller may edit. @throws ForbiddenError EVENT_EDIT_FORBIDDEN */
async function editableForm(web: WebContext, page: PageRequest, ref: ContentRef): Promise<EventFormView> {
  const view = await readEventForm(web, page.actor, { groupId: ref.groupId, ref });
  if (!view.mayEdit)
    throw new ForbiddenError(
      "EVENT_EDIT_FORBIDDEN",
      "Only the event's creator, its participants and the group's managers may change or delete it.",
    );
  return view;
}

async function saveEvent(web: WebContext, page: PageRequest, ref: ContentRef | undefined) {
  const groupId = pathPair(page, "group");
  const view =
    ref === undefined ? await readEventForm(web, page.actor, { groupId }) : await editableForm(web, page, ref);
  const occurrence = view.event === undefined ? undefined : occurrenceAt(page, view.event);
  const values = readValues(page.form, page.chrome.timeZone);
  const defaultTimeZone = page.chrome.timeZone;
  try {
    if (ref === undefined) {
      const created = await createEvent(web, page.actor, { ...inputOf(values), groupId, defaultTimeZone });
      const event = created.entries[0]?.event;
      return page.redirect(
        event ? itemPath({ kind: "GW_SCHEDULE", groupId, id: event.id }) : `/g/${formatPair(groupId)}/events`,
      );
    }
    if (occurrence !== undefined && page.form.get("scope") === "occurrence") {
      const { when, zone } = whenOf(values);
      const times = resolveEventTimes(when, values.allDay, zone);
      await changeOccurrence(web, page.actor, {
        ref,
        originalStart: occurrence.originalStart,
        change: { kind: "move", ...times },
      });
      return page.redirect(withQuery(itemPath(ref), { at: isoMoment(occurrence.originalStart) }));
    }
    await updateEvent(web, page.actor, { ...inputOf(values), ref, defaultTimeZone, keepExceptions: true });
    return page.redirect(itemPath(ref));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return eventForm(page, view, values, occurrence, errorText(page.chrome.lang, error.code, error.message));
  }
}

function eventForm(
  page: PageRequest,
  view: EventFormView,
  values: EventFormValues,
  occurrence: PlacedOccurrence | undefined,
  error?: string,
) {
  const { chrome } = page;
  const list = `/g/${formatPair(view.group.id)}/events`;
  const path = view.event ? itemPath({ kind: "GW_SCHEDULE", groupId: view.group.id, id: view.event.id }) : undefined;
  const at = occurrence === undefined ? undefined : isoMoment(occurrence.originalStart);
  const heading = chrome.t(view.event ? "eventForm.editTitle" : "eventForm.newTitle");
  return page.render(
    "event-form",
    {
      title: `${heading} · ${view.event?.title ?? view.group.name}`,
      heading,
      group: view.group,
      area: "events",
      mentionSource: mentionSource(chrome, view.group.id),
      action: chrome.u(path ? withQuery(`${path}/edit`, { at }) : `${list}/new`),
      cancelHref: chrome.u(path ? withQuery(path, { at }) : list),
      values,
      at,
      scope: page.form.get("scope") ?? "occurrence",
      isNew: view.event === undefined,
      ...timingChoices(chrome, values),
      members: view.members.map((m) => option(formatPair(m.id), m.name, values.participants)),
      menus: [
        option("", chrome.t("events.noMenu"), [values.menu]),
        ...view.menus.map((m) => option(formatPair(m.id), m.name, [values.menu])),
      ],
      facilities: view.facilities.map((f) => option(formatPair(f.id), f.name, values.facilities)),
      error,
    },
    error === undefined ? 200 : 400,
  );
}
