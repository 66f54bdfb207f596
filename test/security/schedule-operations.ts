// The personal schedule's rows of the authorization matrix (docs/api.md "Personal schedule"). A
// personal event belongs to its owner, the secret group's member: to anyone else it does not
// exist (404 NOT_FOUND). Creating one is left out: any caller at `write` level may create their
// own, which changes data by design (the level check is in test/http/schedule.test.ts).
import { CLIENT_NS } from "../support/http.js";
import type { MatrixWorld } from "./matrix-world.js";
import type { Operation, Probe } from "./operations.js";

const SCHEDULE_NS = `${CLIENT_NS} xmlns:cblSch="http://schemas.cybozulive.com/schedule/2010"`;
const q = (query: string): Probe => ({ query });
const feed = (inner: string): Probe => ({ body: `<feed ${SCHEDULE_NS}>${inner}</feed>` });
const operation = (type: string) => `<cbl:operation type="${type}"/>`;
const TIMES = '<cbl:when startTime="2026-04-02T00:00:00Z" endTime="2026-04-02T01:00:00Z"/>';

/** The member's secret personal event, for everyone; a fresh one for the member's own delete. */
async function personalEventFor(w: MatrixWorld, proper: boolean, fresh: boolean): Promise<string> {
  if (!proper || !fresh) return w.personalEventId;
  const start = w.server.clock.now();
  const id = await w.server.store.transaction((tx) =>
    tx.personalEvents.insert({
      ownerId: w.member.id,
      title: "matrix fresh personal event",
      memo: "",
      start,
      end: start + 60 * 60 * 1000,
      allDay: false,
      timeZone: "UTC",
      rule: null,
      seriesEnd: start + 60 * 60 * 1000,
      exceptions: [],
      at: start,
    }),
  );
  return `MYPAGE,1:${w.member.id},MP_SCHEDULE,1:${id}`;
}

/** Rows of `/api/schedule/V2`. */
export const SCHEDULE_OPERATIONS: readonly Operation[] = [
  {
    name: "my schedule",
    method: "GET",
    need: "read",
    scope: "own",
    probe: async () => q("term-start=2026-04-01T00:00:00Z&term-end=2026-05-01T00:00:00Z"),
    shows: (w) => w.secrets.find((secret) => secret.endsWith(" personal")) ?? " personal",
  },
  {
    name: "my schedule with comments",
    method: "GET",
    need: "comments",
    scope: "own",
    probe: async () => q("embed-comment=true"),
  },
  {
    name: "the member's personal event",
    method: "GET",
    need: "read",
    scope: "mine",
    probe: async (w) => q(`entry=${w.personalEventId}`),
  },
  {
    name: "a secret group's event",
    method: "GET",
    need: "read",
    scope: "group",
    probe: async (w) => q(`entry=${w.secret.eventId}`),
  },
  {
    name: "update the member's personal event",
    method: "POST",
    need: "write",
    scope: "mine",
    probe: async (w) =>
      feed(
        `${operation("update")}<entry><id>${w.personalEventId}</id><title>${w.secrets.find((s) => s.endsWith(" personal"))}</title>${TIMES}</entry>`,
      ),
  },
  {
    name: "delete the member's personal event",
    method: "POST",
    need: "write",
    scope: "mine",
    probe: async (w, proper) =>
      feed(`${operation("delete")}<entry><id>${await personalEventFor(w, proper, true)}</id></entry>`),
  },
];
