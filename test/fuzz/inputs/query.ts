// Query strings: known parameter names and stray ones, absurd and repeated values, and percent
// encodings that are wrong (lone %, invalid UTF-8, overlong forms, encoded surrogates).
import fc from "fast-check";
import type { GroupItems } from "../../support/world.js";
import { fieldValue } from "./values.js";
import { formatCursor, roomScopeOwner } from "../../../src/domain/changes.js";

/** Every query parameter some endpoint of the interface reads (docs/api.md "Endpoints"). */
export const PARAMETER_NAMES = [
  "group",
  "entry",
  "id",
  "start-index",
  "max-results",
  "embed-comment",
  "board-folder",
  "task-folder",
  "cabinet-folder",
  "event-folder",
  "term-start",
  "term-end",
  "status",
  "embed-history",
  "member-status",
  "user",
  "unconfirmed",
  "include-rule-out",
  "embed-attachment",
  "category",
  "version",
  "thumbnail",
  "oauth_token",
  "oauth_verifier",
  "q",
  // Chat (issue #21).
  "chat-type",
  "chat-member",
  // The address book, pictures and the live stream.
  "name",
  "type",
  "lastEventId",
  // The personal schedule (issue #20).
  "ignore-aggregated",
  // Delta sync (issue #34).
  "changes-since",
] as const;

const BAD_ESCAPES = [
  "%",
  "%2",
  "%zz",
  "%FF",
  "%C0%AF",
  "%ED%A0%80",
  "%F4%90%80%80",
  "%E6%97",
  "%00",
  "%0A",
  "%0D%0A",
  "%25",
  "%26",
  "%3D",
  "+",
];

/** UTF-8 percent-encoding of every byte but unreserved ASCII; lone surrogates become U+FFFD as a client's encoder would. */
export function percentEncode(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** How one name or value is written into the query string. */
function spelled(value: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(percentEncode(value)) },
    // Raw: what a careless client sends; commas and colons raw are legal (docs/api.md "Identifiers").
    {
      weight: 2,
      arbitrary: fc.constant(
        value.replace(/[^\x21-\x7e]/g, (c) => percentEncode(c)).replace(/[#&]/g, (c) => percentEncode(c)),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...BAD_ESCAPES), fc.nat()).map(([bad, at]) => {
        const e = percentEncode(value);
        const i = at % (e.length + 1);
        return `${e.slice(0, i)}${bad}${e.slice(i)}`;
      }),
    },
    // Raw bytes above 0x7f in the request line: node's client sends them as latin-1.
    {
      weight: 1,
      arbitrary: fc.constant(
        Buffer.from(value, "utf8")
          .toString("latin1")
          .replace(/[^\x21-\xff]|[#&%]/g, (c) => percentEncode(c)),
      ),
    },
  );
}

const parameterName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...PARAMETER_NAMES) },
  { weight: 1, arbitrary: fc.constantFrom(...PARAMETER_NAMES).map((n) => n.toUpperCase()) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("", "__proto__", "constructor", "a[b]", "a.b", "oauth_consumer_key", "x".repeat(300)),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
);

/** The chat room the fuzz world seeds (endpoints.test.ts), written from its creator's side. */
export const CHAT_ROOM = "MYPAGE,1:1,MP_CHAT,1:1";

/** The personal event the fuzz world seeds (endpoints.test.ts): the owner's (user 1) first. */
export const PERSONAL_EVENT = "MYPAGE,1:1,MP_SCHEDULE,1:1";

/** Values each parameter takes in a request that should succeed, from the seeded groups. */
export function validParameterValues(
  groups: readonly GroupItems[],
  signInToken: string,
): Readonly<Record<string, readonly string[]>> {
  const all = (pick: (g: GroupItems) => readonly string[]) => groups.flatMap(pick);
  return {
    group: all((g) => [g.groupPair, `GROUP,${g.groupPair}`]),
    entry: [...all((g) => [g.topicId, g.taskId, g.fileId, g.eventId]), CHAT_ROOM, PERSONAL_EVENT],
    id: [
      ...all((g) => [g.topicId, g.commentId, g.attachmentId, g.taskId, g.fileId, g.eventId]),
      CHAT_ROOM,
      PERSONAL_EVENT,
    ],
    "start-index": ["0", "1", "5", "100"],
    "max-results": ["1", "20", "100", "101"],
    "board-folder": ["UNCLASSIFIED", "TRASH", ...all((g) => g.folders)],
    "task-folder": ["UNCLASSIFIED", "TRASH", ...all((g) => g.folders)],
    "cabinet-folder": ["UNCLASSIFIED", "ATTACH", "TRASH", ...all((g) => g.folders)],
    "event-folder": ["UNCLASSIFIED", ...all((g) => g.folders)],
    "term-start": ["2026-01-01T00:00:00Z", "1900-01-01T00:00:00Z"],
    "term-end": ["2026-12-31T00:00:00Z", "2100-12-31T23:59:59Z"],
    status: ["NOT_COMPLETED"],
    "member-status": ["JOIN", "INVITE"],
    user: all((g) => [g.memberId]),
    category: ["BOARD", "TASK", "CABINET", "COMMENT", "MEMBER_LIST", "M_SCHEDULE", "G_SCHEDULE", "MENTION", "M_CHAT"],
    // Search: words, a phrase, an exclusion, a short (scanned) term, FTS and LIKE syntax, the limit.
    q: ["home", "home topic", '"home topic"', "home -away", "ho", "検索テスト", 'a" OR "b', "%_\\", "あ".repeat(201)],
    version: ["1", "2"],
    oauth_token: [signInToken],
    // Chat: the fuzz world's room 1 (endpoints.test.ts) and its first message, from anyone's side.
    "chat-type": ["THEME", "DIRECT"],
    "chat-member": ["1:1", "1:2", "2"],
    name: ["home", "Owner", "%", "あ"],
    type: ["user", "group", "USER"],
    lastEventId: ["0", "1", "999999999999999", "-1"],
    "ignore-aggregated": ["true", "True", "false", "False"],
    // Delta sync: cursors of each group's lists from the start, one far ahead, and near misses.
    "changes-since": [
      ...all((g) =>
        ["BOARD", "TASK", "CABINET", "MEMBER", "GW_SCHEDULE"].map((kind) =>
          formatCursor({ kind, groupId: Number(g.groupPair.split(":")[1]), parentId: 0, seq: 0 }),
        ),
      ),
      formatCursor({ kind: "BOARD", groupId: 1, parentId: 0, seq: 999_999_999_999 }),
      formatCursor({ kind: "BOARD", groupId: 1, parentId: 0, seq: 0, position: 5 }),
      // A person's ToDo scope (minus a user id), the fuzz world's first users'.
      formatCursor({ kind: "TODO", groupId: -1, parentId: 0, seq: 0 }),
      formatCursor({ kind: "TODO", groupId: -2, parentId: 0, seq: 0 }),
      // The fuzz world's chat room 1 (a room's scope), from the start.
      formatCursor({ kind: "MP_CHAT_COMMENT", groupId: roomScopeOwner(1), parentId: 1, seq: 0 }),
      // The favorites of the same persons (their own scope too).
      formatCursor({ kind: "STAR", groupId: -1, parentId: 0, seq: 0 }),
      formatCursor({ kind: "STAR", groupId: -2, parentId: 0, seq: 0 }),
      "YzEuQk9BUkQuMS4wLjA=",
      "0",
    ],
  };
}

/**
 * One query string (without `?`). Half are plausible: an anchor (group, entry or id) and a few
 * optional parameters with values they take, one of them bent now and then; they reach the
 * services. The other half are chaos: any names, mostly fitting values, odd spellings.
 */
export function queryString(
  ids: readonly string[],
  valid: Readonly<Record<string, readonly string[]>>,
): fc.Arbitrary<string> {
  const goodValue = (name: string) =>
    fc.constantFrom(...(Object.hasOwn(valid, name) ? (valid[name] ?? []) : ["true", "TRUE"]));
  const value = (name: string) =>
    fc.oneof({ weight: 3, arbitrary: goodValue(name) }, { weight: 1, arbitrary: fieldValue(ids) });
  const write = (pairs: ReadonlyArray<readonly [string, string]>) =>
    pairs.map(([n, v]) => `${percentEncode(n)}=${percentEncode(v)}`).join("&");
  const plausible = fc
    .tuple(
      fc.constantFrom<readonly string[]>(
        ["group"],
        ["entry"],
        ["id"],
        ["group", "user"],
        ["group", "cabinet-folder"],
        ["q"],
        ["q", "group"],
        [],
      ),
      fc.uniqueArray(fc.constantFrom(...PARAMETER_NAMES), { maxLength: 3 }),
    )
    .chain(([anchor, optional]) =>
      fc.tuple(
        ...[...anchor, ...optional.filter((n) => !anchor.includes(n))].map((name) =>
          goodValue(name).map((v) => [name, v] as const),
        ),
      ),
    )
    .chain((pairs) =>
      fc.oneof(
        { weight: 1, arbitrary: fc.constant(write(pairs)) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.nat(), fieldValue(ids))
            .map(([i, bad]) =>
              write(pairs.map(([n, v], k) => [n, k === i % Math.max(1, pairs.length) ? bad : v] as const)),
            ),
        },
      ),
    );
  const pair = fc
    .tuple(parameterName, fc.nat({ max: 14 }))
    .chain(([name, shape]) => fc.tuple(fc.constant(name), value(name), fc.constant(shape)))
    .chain(([name, v, shape]) =>
      // Most pairs are written cleanly; one in five is spelled in one of the odd ways.
      fc
        .tuple(
          shape < 12 ? fc.constant(percentEncode(name)) : spelled(name),
          shape < 12 ? fc.constant(percentEncode(v)) : spelled(v),
        )
        .map(([n, e]) => (shape === 12 ? n : shape === 13 ? `${n}=${e}&${n}=${e}` : `${n}=${e}`)),
    );
  const chaos = fc
    .tuple(fc.array(pair, { maxLength: 5 }), fc.constantFrom("&", "&", "&", "&&", ";"))
    .map(([pairs, sep]) => pairs.join(sep));
  return fc.oneof(plausible, chaos);
}
