// Group event requests as clients write them (docs/api.md "Events"), and the `cbl:when` check a
// bot of the original makes on every element of that name, nested ones included.
import assert from "node:assert/strict";
import { CLIENT_NS, request } from "./http.js";

/** The namespaces an event write declares. */
export const EVENT_NS = `${CLIENT_NS} xmlns:cblSch="http://schemas.cybozulive.com/schedule/2010"`;

/** What an event entry of a write carries: already serialised children of `entry`. */
export interface EventBody {
  readonly operation?: string;
  readonly id?: string;
  readonly groupId?: number;
  readonly title?: string;
  readonly summary?: string;
  readonly start?: string;
  readonly end?: string;
  /** Further children of the entry: cblSch:allDay, cblSch:rule, cbl:who... */
  readonly extra?: string;
}

/** An event write's body. */
export function eventBody(body: EventBody): string {
  const when =
    body.start === undefined && body.end === undefined
      ? ""
      : `<cbl:when${body.start === undefined ? "" : ` startTime="${body.start}"`}${body.end === undefined ? "" : ` endTime="${body.end}"`}/>`;
  return (
    `<feed ${EVENT_NS}><cbl:operation type="${body.operation ?? "insert"}"/><entry>` +
    (body.id === undefined ? "" : `<id>${body.id}</id>`) +
    (body.groupId === undefined ? "" : `<cbl:group id="1:${body.groupId}"/>`) +
    (body.title === undefined ? "" : `<title>${body.title}</title>`) +
    (body.summary === undefined ? "" : `<summary type="text">${body.summary}</summary>`) +
    when +
    (body.extra ?? "") +
    "</entry></feed>"
  );
}

/** POSTs an event write. */
export function postEvent(url: string, token: string, body: EventBody) {
  return request(`${url}/api/gwSchedule/V2`, { token, body: eventBody(body) });
}

/**
 * Every `cbl:when` in the text has exactly two attributes, `startTime` then `endTime`, each a full
 * UTC date-time: checked on the raw bytes, as a pattern-matching client reads them.
 */
export function assertEveryWhen(xml: string): number {
  const found = [...xml.matchAll(/<cbl:when\b([^>]*?)\/?>/g)];
  for (const [whole, attributes] of found) {
    const names = [...(attributes ?? "").matchAll(/\s([\w:]+)="([^"]*)"/g)];
    assert.deepEqual(
      names.map((match) => match[1]),
      ["startTime", "endTime"],
      whole,
    );
    for (const match of names) assert.match(match[2] ?? "", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, whole);
  }
  return found.length;
}

/** POSTs a personal event write to the caller's schedule. */
export function postPersonalEvent(url: string, token: string, body: Omit<EventBody, "groupId">) {
  return request(`${url}/api/schedule/V2`, { token, body: eventBody(body) });
}
