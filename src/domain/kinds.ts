// The one registry of the kinds of group content (topics, tasks, files, events): what a kind is,
// declared once. Pure data, so every layer may read it: the id grammar (item-id.ts), the store
// (tables, the notification audience), the edges (paths, not-found codes). What needs code of
// its own per kind (reading a row, presenting an entry) lives in the kind's own folders and is
// picked by the kind: services/<resource>/ and present/<resource>.ts. Adding a kind adds a row
// here, and the compiler then names every table keyed by kind that lacks it.

/** The kinds of group content, as their id segment spells them (`GROUP,1:g,<kind>,1:n`). */
export const CONTENT_KINDS = ["BOARD", "TASK", "CABINET", "GW_SCHEDULE"] as const;

/** A kind of group content: it can carry comments, likes and favorites. */
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** What one kind of group content is. */
export interface KindInfo {
  /** The word for one item in messages: "topic". */
  readonly noun: string;
  /** The table its rows live in. */
  readonly table: "topics" | "tasks" | "files" | "events";
  /** The path segment of its area under a group's pages (`/g/1:g/<area>`). */
  readonly area: "board" | "tasks" | "files" | "events";
  /** The notification category of its area (`?category=`, `cblNtf:icon`). */
  readonly category: "BOARD" | "TASK" | "CABINET" | "G_SCHEDULE";
  /** The error of an id of this kind that names nothing (docs/api.md). */
  readonly notFound: { readonly code: string };
  /** Who hears of its changes: every member, or (events) the participants when it names any. */
  readonly audience: "members" | "participants";
  /** Whether `/api/search/V2` finds items of this kind. */
  readonly searched: boolean;
}

/** Every kind of group content; each takes comments, likes, favorites and notifications. */
export const KINDS: Readonly<Record<ContentKind, KindInfo>> = {
  BOARD: {
    noun: "topic",
    table: "topics",
    area: "board",
    category: "BOARD",
    notFound: { code: "TOPIC_NOT_FOUND" },
    audience: "members",
    searched: true,
  },
  TASK: {
    noun: "task",
    table: "tasks",
    area: "tasks",
    category: "TASK",
    notFound: { code: "TASK_NOT_FOUND" },
    audience: "members",
    searched: true,
  },
  CABINET: {
    noun: "file",
    table: "files",
    area: "files",
    category: "CABINET",
    notFound: { code: "FILE_NOT_FOUND" },
    audience: "members",
    searched: true,
  },
  // The events' errors are the specification's own (docs/api.md "Events").
  GW_SCHEDULE: {
    noun: "event",
    table: "events",
    area: "events",
    category: "G_SCHEDULE",
    notFound: { code: "NOT_FOUND" },
    audience: "participants",
    searched: false,
  },
};

const KIND_SET: ReadonlySet<string> = new Set<string>(CONTENT_KINDS);

/** Whether `kind` (an id segment, a row's kind column) names a kind of group content. */
export function isContentKind(kind: string): kind is ContentKind {
  return KIND_SET.has(kind);
}

/** The kind whose area has this notification category, if any. */
export function kindOfCategory(category: string): ContentKind | undefined {
  return CONTENT_KINDS.find((kind) => KINDS[kind].category === category);
}
