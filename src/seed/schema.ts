import { z } from "zod";
import { ACCESS_LEVELS } from "../domain/access.js";

/**
 * The workspace description `kairan seed` loads (operations.md). Objects are strict, so a
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
});

const app = z.strictObject({
  ref,
  name: nonEmpty,
  consumerKey: nonEmpty,
  consumerSecret: nonEmpty,
  accessLevel: z.enum(ACCESS_LEVELS, { message: `must be one of ${ACCESS_LEVELS.join(", ")}` }).default("Z"),
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

const comment = z.strictObject({ author: ref, text: z.string(), replyTo: z.number().int().positive().nullable().default(null) });

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

const group = z.strictObject({
  ref,
  name: nonEmpty,
  summary: text.default(""),
  members: z.array(member).default([]),
  invites: z.array(invite).default([]),
  boardFolders: z.array(folder).default([]),
  topics: z.array(topic).default([]),
});

/** The whole seed file. */
export const seedSchema = z.strictObject({
  users: z.array(user).default([]),
  apps: z.array(app).default([]),
  tokens: z.array(token).default([]),
  groups: z.array(group).default([]),
});

/** A validated seed file, defaults filled in. */
export type Seed = z.infer<typeof seedSchema>;
