import { type CalendarEvent, type NamedRef, type PersonalEvent } from "../domain/event.js";
import {
  type ContentRef,
  type PersonalEventRef,
  formatContentId,
  formatPair,
  formatPersonalEventId,
  parsePair,
  parsePersonalEventId,
} from "../domain/item-id.js";
import type { NamedList } from "../services/event/event-named.js";
import {
  type OperatorEventInput,
  createEventAsOperator,
  createNamedAsOperator,
  listNamedAsOperator,
  deleteEventAsOperator,
  deleteNamedAsOperator,
  updateEventAsOperator,
} from "../services/event/event-admin.js";
import { eventRef } from "../services/event/event.js";
import {
  createPersonalEventAsOperator,
  deletePersonalEventAsOperator,
  updatePersonalEventAsOperator,
} from "../services/schedule/personal-event-admin.js";
import { type CommandGroup, type Values, commandGroup, groupOption, itemOption, optional, required } from "./admin.js";
import { UsageError } from "./options.js";

function shown(action: string, event: CalendarEvent) {
  return {
    ...timing(action, formatContentId(eventRef(event)), event),
    menu: event.menuId === null ? null : formatPair(event.menuId),
    participants: event.participants.map((person) => formatPair(person.id)),
    facilities: event.facilities.map((facility) => formatPair(facility.id)),
  };
}

/** A personal event as the commands print it: the fields a group event has, less what names a group. */
function shownPersonal(action: string, event: PersonalEvent) {
  return { ...timing(action, formatPersonalEventId(event), event), owner: formatPair(event.ownerId) };
}

function timing(action: string, id: string, event: PersonalEvent | CalendarEvent) {
  return {
    [action]: "event",
    id,
    title: event.title,
    start: new Date(event.start).toISOString().replace(".000", ""),
    end: new Date(event.end).toISOString().replace(".000", ""),
    allDay: event.allDay,
    timeZone: event.timeZone,
    rule: event.rule,
  };
}

/** `--event`: a group event id, or a personal event id (`MYPAGE,1:<user>,MP_SCHEDULE,1:n`). @throws UsageError */
function eventOption(values: Values): ContentRef | PersonalEventRef {
  return parsePersonalEventId(optional(values, "event") ?? "") ?? itemOption(values, "event", "GW_SCHEDULE");
}

function idOption(values: Values, name: string): number | undefined {
  const text = optional(values, name);
  if (text === undefined || text === "") return undefined;
  const id = parsePair(text);
  if (id === undefined) throw new UsageError(`--${name} must be an id such as 1:3 (got "${text.slice(0, 40)}")`);
  return id;
}

function listOption(values: Values, name: string): string[] {
  return (optional(values, name) ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** The event fields of `add` and `update` (update replaces every field, as the API's does). */
function eventInput(values: Values): OperatorEventInput {
  const facilityIds = listOption(values, "facility").map((text) => {
    const id = parsePair(text);
    if (id === undefined) throw new UsageError(`--facility takes ids such as 1:3 (got "${text.slice(0, 40)}")`);
    return id;
  });
  return {
    title: required(values, "title"),
    memo: optional(values, "summary"),
    when: { startTime: required(values, "start"), endTime: required(values, "end") },
    allDay: values["all-day"] === true,
    timeZone: optional(values, "time-zone"),
    rule: optional(values, "rule"),
    menuId: idOption(values, "menu") ?? null,
    participantEmails: listOption(values, "participant"),
    facilityIds,
    exceptions: [],
    occurrences: [],
  };
}

const FIELDS = {
  title: { type: "string" },
  summary: { type: "string" },
  start: { type: "string" },
  end: { type: "string" },
  "all-day": { type: "boolean" },
  "time-zone": { type: "string" },
  rule: { type: "string" },
  menu: { type: "string" },
  participant: { type: "string" },
  facility: { type: "string" },
} as const;
const FIELDS_USAGE =
  "--title TEXT --start TIME --end TIME [--all-day] [--time-zone ZONE] [--rule RRULE] [--summary TEXT] [--menu ID] [--participant EMAIL,...] [--facility ID,...]";

function namedCommands(list: NamedList, noun: string, plural: string) {
  return {
    [`${noun}-add`]: {
      summary: `add a ${noun} to a group`,
      usage: "--group ID --name TEXT",
      options: { group: { type: "string" }, name: { type: "string" } },
      async run(values: Values, _p: readonly string[], context: Parameters<typeof createNamedAsOperator>[0]) {
        const added: NamedRef = await createNamedAsOperator(context, {
          list,
          groupId: groupOption(values),
          name: required(values, "name"),
        });
        return { added: noun, id: formatPair(added.id), name: added.name };
      },
    },
    [plural]: {
      summary: `list a group's ${plural}`,
      usage: "--group ID",
      options: { group: { type: "string" } },
      async run(values: Values, _p: readonly string[], context: Parameters<typeof listNamedAsOperator>[0]) {
        const found = await listNamedAsOperator(context, { list, groupId: groupOption(values) });
        return found.map((item) => ({ id: formatPair(item.id), name: item.name }));
      },
    },
    [`${noun}-remove`]: {
      summary: `remove a ${noun}`,
      usage: `--${noun} ID`,
      options: { [noun]: { type: "string" } },
      async run(values: Values, _p: readonly string[], context: Parameters<typeof deleteNamedAsOperator>[0]) {
        const id = idOption(values, noun);
        if (id === undefined) throw new UsageError(`--${noun} is required`);
        const removed = await deleteNamedAsOperator(context, { list, id });
        return { removed: noun, id: formatPair(removed.id), name: removed.name };
      },
    },
  } as const;
}

/** `kairan event add|update|delete` and the menus and facilities of groups. */
export const EVENT_COMMAND: CommandGroup = commandGroup(
  "event",
  "add, change and delete group events and personal events; menus and facilities",
  {
    add: {
      summary: "add an event to a group, or with --user a personal event (times in UTC, or dates with --all-day)",
      usage: `(--group ID --creator EMAIL | --user EMAIL) ${FIELDS_USAGE}`,
      options: { ...FIELDS, group: { type: "string" }, creator: { type: "string" }, user: { type: "string" } },
      async run(values, _p, context) {
        const owner = optional(values, "user");
        if (owner !== undefined) {
          if (optional(values, "group") !== undefined || optional(values, "creator") !== undefined)
            throw new UsageError("--user adds a personal event: give it without --group and --creator");
          return shownPersonal(
            "added",
            await createPersonalEventAsOperator(context, { ...eventInput(values), ownerEmail: owner }),
          );
        }
        const input = {
          ...eventInput(values),
          groupId: groupOption(values),
          creatorEmail: required(values, "creator"),
        };
        return shown("added", await createEventAsOperator(context, input));
      },
    },
    update: {
      summary:
        "replace an event's fields, a group's or a personal one (those not given are emptied, as through the API)",
      usage: `--event ID ${FIELDS_USAGE}`,
      options: { ...FIELDS, event: { type: "string" } },
      async run(values, _p, context) {
        const ref = eventOption(values);
        if (ref.kind === "MP_SCHEDULE")
          return shownPersonal("updated", await updatePersonalEventAsOperator(context, { ...eventInput(values), ref }));
        return shown("updated", await updateEventAsOperator(context, { ...eventInput(values), ref }));
      },
    },
    delete: {
      summary: "delete an event with its comments, a group's or a personal one",
      usage: "--event ID",
      options: { event: { type: "string" } },
      async run(values, _p, context) {
        const ref = eventOption(values);
        if (ref.kind === "MP_SCHEDULE")
          return shownPersonal("deleted", await deletePersonalEventAsOperator(context, { ref }));
        return shown("deleted", await deleteEventAsOperator(context, { ref }));
      },
    },
    ...namedCommands("event_menus", "menu", "menus"),
    ...namedCommands("facilities", "facility", "facilities"),
  },
);
