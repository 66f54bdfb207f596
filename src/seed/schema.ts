import { z } from "zod";
import { seedChatRoom } from "./chat.js";
import { seedPersonalEvent } from "./personal-events.js";
import { seedPersonalTask } from "./personal-tasks.js";
import { ACCESS_LEVELS } from "../domain/access.js";
import { TASK_PRIORITIES, TASK_STATUSES, parseDue } from "../domain/task.js";

/**
 * The workspace description `kairan seed` loads (docs/operations.md "Seed files"). Objects are strict, so a
 * misspelt field is reported rather than silently ignored; references are checked after shape.
 */
const ref = z.string().min(1, "must not be empty");
const text = z.string();
const nonEmpty = z.string().trim().min(1, "must not be empty");

const user = z.strictObject({
  ref,
  name: nonEmpty,
  email: z.string().email("not an e-mail address"),
  password: z.string().min(1, "must not be empty"),
  familyKana: text.default(""),
  givenKana: text.default(""),
  /** A site administrator. */
  admin: z.boolean().default(false),
});

const app = z.strictObject({
  ref,
  name: nonEmpty,
  consumerKey: nonEmpty,
  consumerSecret: nonEmpty,
  accessLevel: z.enum(ACCESS_LEVELS, { message: `must be one of ${ACCESS_LEVELS.join(", ")}` }).default("Z"),
  /** Access-token requests signed without the temporary secret (docs/operations.md "kairan app"). */
  legacySigning: z.boolean().default(false),
});

const token = z.strictObject({ user: ref, app: ref, token: nonEmpty, secret: nonEmpty, label: text.default("") });

const member = z.strictObject({ user: ref, manager: z.boolean().default(false), notify: z.boolean().default(true) });

const invite = z.strictObject({
  ref,
  email: z.string().email("not an e-mail address"),
  label: nonEmpty,
  expires: z.iso.datetime({ message: "not a UTC date-time such as 2027-01-01T00:00:00Z" }).optional(),
});

const folder = z.strictObject({ ref, name: nonEmpty });

const comment = z.strictObject({
  author: ref,
  text: z.string(),
  replyTo: z.number().int().positive().nullable().default(null),
});

const topic = z.strictObject({
  ref,
  title: nonEmpty,
  summary: text.default(""),
  author: ref,
  folder: ref.optional(),
  allowEdit: z.boolean().default(false),
  fastNotify: z.boolean().default(false),
  trashed: z.boolean().default(false),
  comments: z.array(comment).default([]),
});

const task = z.strictObject({
  ref,
  title: nonEmpty,
  summary: text.default(""),
  author: ref,
  assignee: ref.optional(),
  due: z
    .string()
    .refine((value) => parseDue(value) !== undefined, "not a date (YYYY-MM-DD) or UTC date-time (2026-12-01T09:00:00Z)")
    .optional(),
  allDay: z.boolean().optional(),
  priority: z.enum(TASK_PRIORITIES, { message: `must be one of ${TASK_PRIORITIES.join(", ")}` }).default("B"),
  status: z.enum(TASK_STATUSES, { message: `must be one of ${TASK_STATUSES.join(", ")}` }).default("NOT_STARTED"),
  folder: ref.optional(),
  trashed: z.boolean().default(false),
});

const fileVersion = z
  .strictObject({
    fileName: nonEmpty,
    content: z.string().optional(),
    contentBase64: z
      .string()
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, "not base64")
      .optional(),
    author: ref,
    comment: text.default(""),
  })
  .refine(
    (v) => (v.content === undefined) !== (v.contentBase64 === undefined),
    "give exactly one of content and contentBase64",
  );

const file = z.strictObject({
  ref,
  title: text.default(""),
  memo: text.default(""),
  author: ref,
  folder: ref.optional(),
  versions: z.array(fileVersion).min(1, "a file needs at least one version"),
  trashed: z.boolean().default(false),
});

const event = z.strictObject({
  ref,
  title: nonEmpty,
  summary: text.default(""),
  creator: ref,
  /** UTC date-times, or plain dates (end inclusive or exclusive) for an all-day event. */
  start: nonEmpty,
  end: nonEmpty,
  allDay: z.boolean().default(false),
  timeZone: z.string().optional(),
  rule: z.string().optional(),
  menu: ref.optional(),
  participants: z.array(ref).default([]),
  facilities: z.array(ref).default([]),
});

const group = z.strictObject({
  ref,
  name: nonEmpty,
  summary: text.default(""),
  members: z.array(member).default([]),
  invites: z.array(invite).default([]),
  boardFolders: z.array(folder).default([]),
  topics: z.array(topic).default([]),
  taskFolders: z.array(folder).default([]),
  tasks: z.array(task).default([]),
  cabinetFolders: z.array(folder).default([]),
  files: z.array(file).default([]),
  eventMenus: z.array(folder).default([]),
  facilities: z.array(folder).default([]),
  events: z.array(event).default([]),
});

/** The whole seed file. */
export const seedSchema = z.strictObject({
  users: z.array(user).default([]),
  apps: z.array(app).default([]),
  tokens: z.array(token).default([]),
  groups: z.array(group).default([]),
  chatRooms: z.array(seedChatRoom).default([]),
  personalEvents: z.array(seedPersonalEvent).default([]),
  personalTasks: z.array(seedPersonalTask).default([]),
});

/** A validated seed file, defaults filled in. */
export type Seed = z.infer<typeof seedSchema>;
