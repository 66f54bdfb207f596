// Every operation of every API endpoint, aimed at the secret group: the rows of the authorization
// matrix. Which endpoints exist comes from the route table; this says, per endpoint, what its
// operations are, the access level each needs (docs/api.md "Access levels") and whose data it touches.
import type { AccessLevel } from "../../src/domain/access.js";
import { CLIENT_NS } from "../support/http.js";
import type { Part } from "../support/multipart.js";
import { seedEvent } from "../support/world.js";
import type { MatrixWorld } from "./matrix-world.js";
import { seedPersonalTask } from "../support/world.js";
import {
  CHAT_COMMENT_OPERATIONS,
  CHAT_LIKE_OPERATIONS,
  CHAT_NOTIFICATION_OPERATIONS,
  CHAT_OPERATIONS,
} from "./chat-operations.js";
import { SCHEDULE_OPERATIONS } from "./schedule-operations.js";
import { formatCursor } from "../../src/domain/changes.js";

/** One request: a query, an Atom body, or multipart parts. */
export interface Probe {
  readonly query?: string;
  readonly body?: string;
  readonly parts?: readonly Part[];
}

/** An operation of an endpoint. */
export interface Operation {
  readonly name: string;
  readonly method: "GET" | "POST";
  readonly need: AccessLevel;
  /**
   * `group`: reads or changes the secret group: anyone not in it is refused 403.
   * `own`: the caller's own data (their groups, favorites, notifications): 200 for anyone
   * authenticated, showing nothing of groups they are not in.
   * `unknown`: an endpoint this table does not describe yet (generic probes).
   * `room`: the member's secret chat room: anyone not in it is answered 404 NOT_FOUND.
   * `people`: a chat room with the secret group's owner: anyone sharing no group with them is
   * refused 400 CHAT_MEMBER_INVALID.
   * `mine`: the member's personal event: anyone else is answered 404 NOT_FOUND.
   * `personal`: the member's personal task: anyone else is answered 404 TASK_NOT_FOUND.
   */
  readonly scope: "group" | "own" | "unknown" | "room" | "people" | "mine" | "personal";
  /** The request; `proper` is true for the caller who must succeed (writes that use up their target get a fresh one). */
  readonly probe: (world: MatrixWorld, proper: boolean) => Promise<Probe>;
  /** For `own` reads: what the secret group's member sees there, proving the leak check can fail. */
  readonly shows?: (world: MatrixWorld) => string;
  /**
   * For `group` scope: how an outsider is refused when it is not 403 GROUP_NOT_JOINED (pictures
   * answer 404, as for an id that does not exist).
   */
  readonly refusal?: { readonly status: number; readonly code: string };
  /** An answer that never ends (the live stream): the matrix reads its beginning only. */
  readonly stream?: true;
}

/**
 * The endpoints open to anyone by design (registered with `public`): the health checks, which
 * say only that the process serves and that the database answers, and the OpenSearch
 * description, which holds only the server's address (browsers fetch it without a session).
 */
export const PUBLIC_ENDPOINTS: readonly string[] = ["/healthz", "/readyz", "/opensearch.xml"];

const q = (query: string): Probe => ({ query });
const feed = (inner: string): Probe => ({ body: `<feed ${CLIENT_NS}>${inner}</feed>` });
const operation = (type: string) => `<cbl:operation type="${type}"/>`;

/** A topic of the member's own, when the proper caller's write would use up the shared one. */
async function freshTopic(world: MatrixWorld, proper: boolean): Promise<string> {
  if (!proper) return world.secret.topicId;
  const topic = await world.server.factories.topic(world.secret.group, world.member, { title: "matrix fresh topic" });
  return `GROUP,${world.secret.groupPair},BOARD,1:${topic.id}`;
}

async function freshComment(world: MatrixWorld, proper: boolean): Promise<string> {
  if (!proper) return world.secret.commentId;
  const topicId = world.secret.topicId;
  const topic = await world.server.store.read((tx) => tx.topics.findById(Number(topicId.split(":").at(-1))));
  if (!topic) throw new Error("the secret topic is gone");
  const comment = await world.server.factories.comment(topic, world.member, { body: "matrix fresh comment" });
  return `${topicId},COMMENT,${comment.number}`;
}

/** An event of the member's own, when the proper caller's write would use up the shared one. */
async function freshEvent(world: MatrixWorld, proper: boolean): Promise<string> {
  if (!proper) return world.secret.eventId;
  return seedEvent(world.server, world.secret.group, world.member, "matrix fresh event");
}

/** A personal task of the member's own, when the proper caller's write would use up the shared one. */
async function freshPersonalTask(world: MatrixWorld, proper: boolean): Promise<string> {
  if (!proper) return world.personalTaskId;
  return seedPersonalTask(world.server, world.member, "matrix fresh personal task");
}

/** For the proper member, an event naming them (only a named participant answers); the secret one for everyone else. */
async function eventNamingMember(world: MatrixWorld, proper: boolean): Promise<string> {
  if (!proper) return world.secret.eventId;
  const start = world.server.clock.now();
  const id = await world.server.store.transaction((tx) =>
    tx.events.insert({
      groupId: world.secret.group.id,
      creatorId: world.member.id,
      title: "matrix answered event",
      memo: "",
      start,
      end: start + 60 * 60 * 1000,
      allDay: false,
      timeZone: "UTC",
      rule: null,
      seriesEnd: start + 60 * 60 * 1000,
      menuId: null,
      participantIds: [world.member.id],
      facilityIds: [],
      exceptions: [],
      at: start,
    }),
  );
  return `GROUP,${world.secret.groupPair},GW_SCHEDULE,1:${id}`;
}

const EVENT_NS = 'xmlns:cblSch="http://schemas.cybozulive.com/schedule/2010"';
const eventFeed = (inner: string): Probe => ({ body: `<feed ${CLIENT_NS} ${EVENT_NS}>${inner}</feed>` });
const EVENT_TIMES =
  '<title>matrix event</title><cbl:when startTime="2026-04-02T00:00:00Z" endTime="2026-04-02T01:00:00Z"/>';

/** Group events (docs/api.md "Events"): reads, and writes of any member. */
const EVENT_OPERATIONS: readonly Operation[] = [
  { name: "list", method: "GET", need: "read", scope: "group", probe: async (w) => q(`group=${w.secret.groupPair}`) },
  {
    name: "changes since a cursor",
    method: "GET",
    need: "read",
    scope: "group",
    probe: async (w) =>
      q(`group=${w.secret.groupPair}&term-start=2026-04-01T00:00:00Z&changes-since=${changesCursor(w, "GW_SCHEDULE")}`),
  },
  {
    name: "one event",
    method: "GET",
    need: "read",
    scope: "group",
    probe: async (w) => q(`entry=${w.secret.eventId}`),
  },
  {
    name: "list with comments",
    method: "GET",
    need: "comments",
    scope: "group",
    probe: async (w) => q(`group=${w.secret.groupPair}&embed-comment=true`),
  },
  {
    name: "create (insert)",
    method: "POST",
    need: "write",
    scope: "group",
    probe: async (w) =>
      eventFeed(`${operation("insert")}<entry><cbl:group id="${w.secret.groupPair}"/>${EVENT_TIMES}</entry>`),
  },
  {
    name: "update",
    method: "POST",
    need: "write",
    scope: "group",
    probe: async (w, p) =>
      eventFeed(`${operation("update")}<entry><id>${await freshEvent(w, p)}</id>${EVENT_TIMES}</entry>`),
  },
  {
    name: "delete",
    method: "POST",
    need: "write",
    scope: "group",
    probe: async (w, p) => eventFeed(`${operation("delete")}<entry><id>${await freshEvent(w, p)}</id></entry>`),
  },
  {
    name: "answer (a participant's own)",
    method: "POST",
    need: "write",
    scope: "group",
    probe: async (w, p) =>
      eventFeed(
        `${operation("answer")}<entry><id>${await eventNamingMember(w, p)}</id><cbl:who answer="attending"/></entry>`,
      ),
  },
];

/** The tag in every title of the secret group (its topic is "<tag> topic"). */
const secretTag = (world: MatrixWorld): string => (world.secret.secrets[1] ?? "").replace(/ topic$/, "");
/**
 * Mention notifications (docs/api.md "Mentions"): the secret group has a topic naming its member and
 * every outsider (matrix-world.ts); only the member may see it, listed or confirmed.
 */
const MENTION_OPERATIONS: readonly Operation[] = [
  {
    name: "my mention notifications",
    method: "GET",
    need: "read",
    scope: "own",
    probe: async () => q("category=MENTION"),
    shows: (w) => w.secrets.find((secret) => secret.endsWith(" mention")) ?? "(no mention seeded)",
  },
  {
    name: "confirm mentions of the secret group's items",
    method: "POST",
    need: "read",
    scope: "own",
    probe: async (w) => ({ ...q("category=MENTION"), ...feed(`<entry><id>${w.secret.topicId}</id></entry>`) }),
  },
];

const groupReads = (url: string): readonly [string, readonly Operation[]] => [
  url,
  [{ name: "list", method: "GET", need: "read", scope: "group", probe: async (w) => q(`group=${w.secret.groupPair}`) }],
];

const toggles = (what: "like" | "favorite"): readonly Operation[] => [
  {
    name: `${what} (insert)`,
    method: "POST",
    need: "read",
    scope: "group",
    probe: async (w, proper) => feed(`${operation("insert")}<entry><id>${await freshTopic(w, proper)}</id></entry>`),
  },
  {
    name: `un${what} (delete)`,
    method: "POST",
    need: "read",
    scope: "group",
    probe: async (w, proper) => feed(`${operation("delete")}<entry><id>${await freshTopic(w, proper)}</id></entry>`),
  },
];

/**
 * A delta sync cursor of the secret group's list (a comment kind: of its topic's comments), far
 * ahead of every change: only a member may read it (docs/api.md "Delta sync"). A cursor from before
 * a former member left answers them tombstones of what they held, by design: test/http/delta-sync.test.ts.
 */
function changesCursor(w: MatrixWorld, kind: string): string {
  const groupId = Number(w.secret.groupPair.split(":")[1]);
  const parentId = kind.endsWith("_COMMENT") ? Number(w.secret.topicId.split(":").at(-1)) : 0;
  return formatCursor({ kind, groupId, parentId, seq: 999_999_999_999 });
}

/** Operations per endpoint URL. Endpoints not registered yet (being built) are skipped until they are. */
export const OPERATIONS: ReadonlyMap<string, readonly Operation[]> = new Map<string, readonly Operation[]>([
  ["/api/gwSchedule/V2", EVENT_OPERATIONS],
  groupReads("/api/gwScheduleFolder/V2"),
  [
    "/api/board/V2",
    [
      {
        name: "list",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}`),
      },
      {
        name: "changes since a cursor",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}&changes-since=${changesCursor(w, "BOARD")}`),
      },
      {
        name: "list with comments",
        method: "GET",
        need: "comments",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}&embed-comment=true`),
      },
      {
        name: "one topic",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`entry=${w.secret.topicId}`),
      },
      {
        name: "create (insert)",
        method: "POST",
        need: "write",
        scope: "group",
        probe: async (w) =>
          feed(
            `${operation("insert")}<entry><cbl:group id="${w.secret.groupPair}"/><title>matrix topic</title></entry>`,
          ),
      },
      {
        name: "update",
        method: "POST",
        need: "write",
        scope: "group",
        probe: async (w, p) =>
          feed(`${operation("update")}<entry><id>${await freshTopic(w, p)}</id><title>matrix renamed</title></entry>`),
      },
      {
        name: "delete",
        method: "POST",
        need: "write",
        scope: "group",
        probe: async (w, p) => feed(`${operation("delete")}<entry><id>${await freshTopic(w, p)}</id></entry>`),
      },
      {
        name: "lock",
        method: "POST",
        need: "write",
        scope: "group",
        probe: async (w, p) => feed(`${operation("lock")}<entry><id>${await freshTopic(w, p)}</id></entry>`),
      },
      {
        name: "unlock",
        method: "POST",
        need: "write",
        scope: "group",
        probe: async (w, p) => feed(`${operation("unlock")}<entry><id>${await freshTopic(w, p)}</id></entry>`),
      },
      {
        name: "comment (no operation)",
        method: "POST",
        need: "write",
        scope: "group",
        probe: async (w) => feed(`<id>${w.secret.topicId}</id><entry><summary>matrix comment</summary></entry>`),
      },
    ],
  ],
  [
    "/api/comment/V2",
    [
      {
        name: "list",
        method: "GET",
        need: "comments",
        scope: "group",
        probe: async (w) => q(`entry=${w.secret.topicId}`),
      },
      {
        name: "changes since a cursor",
        method: "GET",
        need: "comments",
        scope: "group",
        probe: async (w) => q(`entry=${w.secret.topicId}&changes-since=${changesCursor(w, "BOARD_COMMENT")}`),
      },
      {
        name: "add (insert)",
        method: "POST",
        need: "write",
        scope: "group",
        probe: async (w) =>
          feed(`${operation("insert")}<id>${w.secret.topicId}</id><entry><summary>matrix comment</summary></entry>`),
      },
      {
        name: "add with a file (multipart)",
        method: "POST",
        need: "write",
        scope: "group",
        probe: async (w) => ({
          parts: [
            {
              name: "default",
              text: `<feed ${CLIENT_NS}>${operation("insert")}<id>${w.secret.topicId}</id><entry><summary>matrix upload</summary></entry></feed>`,
            },
            { name: "file0", fileName: "matrix.bin", size: 32 },
          ],
        }),
      },
      {
        name: "delete",
        method: "POST",
        need: "write",
        scope: "group",
        probe: async (w, p) => feed(`${operation("delete")}<entry><id>${await freshComment(w, p)}</id></entry>`),
      },
      ...CHAT_COMMENT_OPERATIONS,
    ],
  ],
  [
    "/api/gwTask/V2",
    [
      {
        name: "list",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}`),
      },
      {
        name: "changes since a cursor",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}&changes-since=${changesCursor(w, "TASK")}`),
      },
      {
        name: "one task",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`entry=${w.secret.taskId}`),
      },
      {
        name: "list with comments",
        method: "GET",
        need: "comments",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}&embed-comment=true`),
      },
    ],
  ],
  [
    "/api/task/V2",
    [
      {
        name: "my ToDo",
        method: "GET",
        need: "read",
        scope: "own",
        probe: async () => q(""),
        shows: (w) => w.personalTaskId,
      },
      {
        name: "my ToDo with comments",
        method: "GET",
        need: "comments",
        scope: "own",
        probe: async () => q("embed-comment=true"),
      },
      {
        name: "my tasks of one group",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}`),
      },
      {
        name: "update a personal task",
        method: "POST",
        need: "write",
        scope: "personal",
        probe: async (w, p) =>
          feed(`${operation("update")}<entry><id>${await freshPersonalTask(w, p)}</id><title>changed</title></entry>`),
      },
      {
        name: "delete a personal task",
        method: "POST",
        need: "write",
        scope: "personal",
        probe: async (w, p) => feed(`${operation("delete")}<entry><id>${await freshPersonalTask(w, p)}</id></entry>`),
      },
    ],
  ],
  [
    "/api/gwCabinet/V2",
    [
      {
        name: "list",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}&cabinet-folder=UNCLASSIFIED`),
      },
      {
        name: "changes since a cursor",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}&changes-since=${changesCursor(w, "CABINET")}`),
      },
      {
        name: "one file",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`entry=${w.secret.fileId}&embed-history=true`),
      },
      {
        name: "attachments (ATTACH)",
        method: "GET",
        need: "comments",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}&cabinet-folder=ATTACH`),
      },
    ],
  ],
  [
    "/api/gwMemberList/V2",
    [
      {
        name: "members",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}`),
      },
      {
        name: "invitations",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}&member-status=INVITE`),
      },
      {
        name: "changes since a cursor",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}&changes-since=${changesCursor(w, "MEMBER")}`),
      },
      {
        name: "one member",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`group=${w.secret.groupPair}&user=${w.secret.memberId}`),
      },
    ],
  ],
  groupReads("/api/boardFolder/V2"),
  groupReads("/api/gwTaskFolder/V2"),
  groupReads("/api/gwCabinetFolder/V2"),
  [
    "/api/group/V2",
    [
      {
        name: "my groups",
        method: "GET",
        need: "read",
        scope: "own",
        probe: async () => q(""),
        shows: (w) => `${w.secret.group.name}`,
      },
    ],
  ],
  [
    "/api/star/V2",
    [
      {
        name: "my favorites",
        method: "GET",
        need: "read",
        scope: "own",
        probe: async () => q(""),
        shows: (w) => w.secret.secrets[1] ?? "",
      },
      {
        name: "one favorite",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`id=${w.secret.topicId}`),
      },
      ...toggles("favorite"),
    ],
  ],
  [
    "/api/good/V2",
    [
      { name: "likers", method: "GET", need: "read", scope: "group", probe: async (w) => q(`id=${w.secret.topicId}`) },
      ...toggles("like"),
      ...CHAT_LIKE_OPERATIONS,
    ],
  ],
  [
    "/api/fileDownload/V2",
    [
      {
        name: "comment attachment",
        method: "GET",
        need: "comments",
        scope: "group",
        probe: async (w) => q(`id=${w.secret.attachmentId}`),
      },
      {
        name: "shared file",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`id=${w.secret.fileId}`),
      },
      {
        name: "the secret room's file",
        method: "GET",
        need: "comments",
        scope: "room",
        probe: async (w) => q(`id=${encodeURIComponent(w.chat.fileId)}`),
      },
    ],
  ],
  // Search (docs/api.md "Search"): the tag is in every title of the secret group, so the member's
  // search shows them and a stranger's must show and count nothing.
  [
    "/api/search/V2",
    [
      {
        name: "search all my groups",
        method: "GET",
        need: "read",
        scope: "own",
        probe: async (w) => q(`q=${encodeURIComponent(secretTag(w))}`),
        shows: (w) => w.secret.secrets[1] ?? "",
      },
      {
        name: "search comments",
        method: "GET",
        need: "comments",
        scope: "own",
        probe: async (w) => q(`q=${encodeURIComponent(secretTag(w))}&category=COMMENT`),
        shows: (w) => w.secret.secrets[2] ?? "",
      },
      {
        name: "search the secret group",
        method: "GET",
        need: "read",
        scope: "group",
        probe: async (w) => q(`q=${encodeURIComponent(secretTag(w))}&group=${w.secret.groupPair}`),
      },
    ],
  ],
  // Live updates, the address book and pictures (docs/api.md "Live updates", "Address book", "Icons").
  [
    "/api/stream/V2",
    [{ name: "my live stream", method: "GET", need: "read", scope: "own", stream: true, probe: async () => q("") }],
  ],
  [
    "/api/mpAddress/V2",
    [
      {
        name: "my address book",
        method: "GET",
        need: "read",
        scope: "own",
        probe: async () => q(""),
        shows: (w) => w.owner.name,
      },
    ],
  ],
  [
    "/api/icon/V2",
    [
      {
        name: "a member's picture",
        method: "GET",
        need: "read",
        scope: "group",
        refusal: { status: 404, code: "USER_NOT_FOUND" },
        probe: async (w) => q(`type=user&user=1:${w.owner.id}`),
      },
      {
        name: "the group's picture",
        method: "GET",
        need: "read",
        scope: "group",
        refusal: { status: 404, code: "GROUP_NOT_FOUND" },
        probe: async (w) => q(`type=group&group=${w.secret.groupPair}`),
      },
    ],
  ],
  // Being built on another branch (docs/api.md "Notifications": list, and confirm up to 100 ids; confirming
  // unknown ids is no error). Their rows start running when the endpoints are registered.
  ...(["/api/notification/V2", "/api/goodNotification/V2"] as const).map(
    (url): readonly [string, readonly Operation[]] => [
      url,
      [
        { name: "my notifications", method: "GET", need: "read", scope: "own", probe: async () => q("") },
        {
          name: "confirm the secret group's items",
          method: "POST",
          need: "read",
          scope: "own",
          probe: async (w) =>
            feed(`<entry><id>${w.secret.topicId}</id></entry><entry><id>${w.secret.commentId}</id></entry>`),
        },
        ...(url === "/api/notification/V2" ? MENTION_OPERATIONS : []),
        ...(url === "/api/notification/V2" ? CHAT_NOTIFICATION_OPERATIONS : []),
      ],
    ],
  ),
  // Chat (issue #21).
  ...CHAT_OPERATIONS,
  // The personal schedule (issue #20).
  ["/api/schedule/V2", SCHEDULE_OPERATIONS],
]);

/** Requests for an endpoint this table does not describe: aimed at the secret group in every way the interface names items. */
export function genericOperations(method: "GET" | "POST"): readonly Operation[] {
  const make = (name: string, probe: Operation["probe"]): Operation => ({
    name: `generic: ${name}`,
    method,
    need: "read",
    scope: "unknown",
    probe,
  });
  if (method === "GET") {
    return [
      make("no parameters", async () => q("")),
      make("group=", async (w) => q(`group=${w.secret.groupPair}`)),
      make("entry=", async (w) => q(`entry=${w.secret.topicId}`)),
      make("id=", async (w) => q(`id=${w.secret.topicId}`)),
    ];
  }
  return [
    make("entries listing the secret ids", async (w) =>
      feed(`<entry><id>${w.secret.topicId}</id></entry><entry><id>${w.secret.commentId}</id></entry>`),
    ),
    make("insert on the secret topic", async (w) =>
      feed(`${operation("insert")}<entry><id>${w.secret.topicId}</id></entry>`),
    ),
  ];
}
