// The calendars: a group's (`/g/1:n/events`) and the signed-in person's over all their groups
// (`/schedule`). Both read occurrences through services/schedule/calendar-page.ts and show them in the
// month, week or list view (`?view=`, `?date=`), in the reader's language and time zone.
import type { FastifyInstance } from "fastify";
import type { Group, Membership } from "../../domain/group.js";
import { type ContentRef, formatPair } from "../../domain/item-id.js";
import { readEventMenuFilter } from "../../http-kit/parameters.js";
import { queryValue } from "../../http-kit/query.js";
import type { MemberRow } from "../../services/schedule/member-week.js";
import { type CalendarOccurrence, readGroupCalendar, readMyCalendar } from "../../services/schedule/calendar-page.js";
import { type CalendarRange, dayText, readCalendarRange } from "../calendar/calendar-query.js";
import { calendarFormat } from "../calendar/placing.js";
import { timeGrid } from "../calendar/time-grid.js";
import { type ViewContext, listView, membersView, monthView } from "../calendar/views.js";
import { readMemberWeek } from "../../services/schedule/member-week.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { PAGE_SIZE, readPageNumber, withQuery } from "../paging.js";
import { isoMoment } from "../i18n/dates.js";
import { itemPath } from "./item-view.js";
import { personalEventPath } from "./my-event-paths.js";

/** `/g/:group/events` and `/schedule`. */
export function registerCalendarPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/events", { GET: (page) => groupCalendar(web, page) });
  registerPage(app, web, "/schedule", { GET: (page) => myCalendar(web, page) });
}

/** The page of one occurrence: the event's page, at that occurrence for a repeating event. */
export function occurrenceHref(occurrence: CalendarOccurrence): string {
  const at = occurrence.repeating ? isoMoment(occurrence.originalStart) : undefined;
  if (occurrence.personal) return withQuery(personalEventPath(occurrence.eventId), { at });
  const ref: ContentRef = { kind: "GW_SCHEDULE", groupId: occurrence.groupId, id: occurrence.eventId };
  return withQuery(itemPath(ref), { at });
}

function rangeOf(web: WebContext, page: PageRequest, members = false): CalendarRange {
  return readCalendarRange(page.query, page.chrome.lang, page.chrome.timeZone, web.clock.now(), { members });
}

/** The views and navigation of a calendar at `path`, keeping the query's other filters (`keep`). */
function calendarBody(
  page: PageRequest,
  range: CalendarRange,
  occurrences: readonly CalendarOccurrence[],
  path: string,
  keep: Readonly<Record<string, string | undefined>>,
  showGroup: boolean,
  members?: { readonly rows: readonly MemberRow[]; readonly total: number },
) {
  const { chrome } = page;
  const format = calendarFormat(chrome.lang, chrome.timeZone);
  const href = (view: string, day: number | undefined, extra: Record<string, string | number | undefined> = {}) =>
    chrome.u(
      withQuery(path, {
        view: view === "month" ? undefined : view,
        date: day === undefined ? undefined : dayText(day),
        ...keep,
        ...extra,
      }),
    );
  const context: ViewContext = {
    zone: chrome.timeZone,
    format,
    href: (occurrence) => chrome.u(occurrenceHref(occurrence)),
    dayHref: (view, day) => href(view, day),
    showGroup,
  };
  const request = readPageNumber(page.query);
  const heading =
    range.view === "month"
      ? format.month(range.anchor)
      : range.view === "day"
        ? format.longDay(range.anchor)
        : `${format.longDay(range.firstDay)} – ${format.longDay(range.endDay - 24 * 60 * 60 * 1000)}`;
  return {
    view: range.view,
    heading,
    zone: chrome.timeZone,
    views: (showGroup
      ? (["month", "week", "day", "list"] as const)
      : (["month", "week", "day", "members", "list"] as const)
    ).map((view) => ({
      name: view,
      label: chrome.t(`calendar.${view}`),
      href: href(view, range.anchor),
      current: view === range.view,
    })),
    previousHref: href(range.view, range.previous),
    nextHref: href(range.view, range.next),
    todayHref: href(range.view, undefined),
    month: range.view === "month" ? monthView(range, occurrences, context) : undefined,
    grid: range.view === "week" || range.view === "day" ? timeGrid(range, occurrences, context) : undefined,
    members:
      members === undefined
        ? undefined
        : {
            ...membersView(range, members.rows, context),
            previousHref: request.number > 1 ? href("members", range.anchor, { page: request.number - 1 }) : undefined,
            nextHref:
              request.number * PAGE_SIZE < members.total
                ? href("members", range.anchor, { page: request.number + 1 })
                : undefined,
          },
    list:
      range.view === "list"
        ? (() => {
            const list = listView(range, occurrences, context, request.number);
            return {
              ...list,
              olderHref:
                list.olderPage === undefined ? undefined : href("list", range.anchor, { page: list.olderPage }),
              newerHref:
                list.newerPage === undefined ? undefined : href("list", range.anchor, { page: list.newerPage }),
            };
          })()
        : undefined,
  };
}

async function groupCalendar(web: WebContext, page: PageRequest) {
  const range = rangeOf(web, page, true);
  if (range.view === "members") return memberWeek(web, page, range);
  const groupId = pathPair(page, "group");
  const menuText = queryValue(page.query, "menu") ?? "";
  const menu = readEventMenuFilter(menuText, "menu");
  const view = await readGroupCalendar(web, page.actor, { groupId, window: range.window, menu });
  const path = `/g/${formatPair(groupId)}/events`;
  const { chrome } = page;
  return page.render("calendar", {
    ...groupChrome(web, page, view, path, range),
    ...calendarBody(page, range, view.occurrences, path, { menu: menuText || undefined }, false),
    filter: {
      action: chrome.u(path),
      view: range.view,
      date: dayText(range.anchor),
      options: [
        { value: "", label: chrome.t("events.anyMenu"), selected: menuText === "" },
        {
          value: "UNCLASSIFIED",
          label: chrome.t("events.noMenu"),
          selected: menuText.toUpperCase() === "UNCLASSIFIED",
        },
        ...view.menus.map((m) => ({
          value: formatPair(m.id),
          label: m.name,
          selected: menu.kind === "menu" && menu.menuId === m.id,
        })),
      ],
    },
  });
}

/** The page's title, the group's tabs, its feed and its buttons. */
function groupChrome(
  web: WebContext,
  page: PageRequest,
  view: { group: Group; membership: Membership },
  path: string,
  range: CalendarRange,
) {
  const { chrome } = page;
  const name = chrome.t("events.title");
  return {
    title: `${name} · ${view.group.name}`,
    pageHeading: name,
    group: view.group,
    area: "events",
    feed: {
      title: `${view.group.name}: ${name}`,
      href: `${web.baseUrl()}/api/gwSchedule/V2?${new URLSearchParams({ group: formatPair(view.group.id) }).toString()}`,
    },
    newHref: chrome.u(withQuery(`${path}/new`, { date: dayText(range.anchor) })),
    listsHref: view.membership.manager ? chrome.u(`${path}/lists`) : undefined,
  };
}

/** The group week view: members in rows, the week's days in columns, a page of members at a time. */
async function memberWeek(web: WebContext, page: PageRequest, range: CalendarRange) {
  const groupId = pathPair(page, "group");
  const request = readPageNumber(page.query);
  const view = await readMemberWeek(web, page.actor, {
    groupId,
    window: range.window,
    page: { offset: (request.number - 1) * PAGE_SIZE, limit: PAGE_SIZE },
  });
  const path = `/g/${formatPair(groupId)}/events`;
  return page.render("calendar", {
    ...groupChrome(web, page, view, path, range),
    ...calendarBody(page, range, [], path, {}, false, view),
    filter: undefined,
  });
}

async function myCalendar(web: WebContext, page: PageRequest) {
  const range = rangeOf(web, page);
  const view = await readMyCalendar(web, page.actor, { window: range.window });
  return page.render("calendar", {
    title: page.chrome.t("nav.schedule"),
    pageHeading: page.chrome.t("nav.schedule"),
    section: "schedule",
    ...calendarBody(page, range, view.occurrences, "/schedule", {}, true),
    filter: undefined,
    newHref: page.chrome.u(withQuery("/schedule/new", { date: dayText(range.anchor) })),
    listsHref: undefined,
  });
}
