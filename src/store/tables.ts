import type { Database } from "./schema.js";

/**
 * Every table, parents before children (the order foreign keys allow filling an empty database).
 * `kairan copy` walks this list; a table missing from it is a compile error below.
 */
export const TABLES_IN_DEPENDENCY_ORDER = [
  "users",
  "applications",
  "tokens",
  "sessions",
  "groups",
  "memberships",
  "folders",
  "topics",
  "comments",
  "comment_counters",
  "topic_leases",
  "tasks",
  "files",
  "file_versions",
  "attachments",
  "likes",
  "favorites",
  "comment_reads",
  "notifications",
  "like_notifications",
  "oauth_nonces",
  "oauth_temporary_credentials",
  "login_failures",
] as const satisfies readonly (keyof Database)[];

/** Tables of the schema that the list above forgets; must stay `never`. */
type Forgotten = Exclude<keyof Database, (typeof TABLES_IN_DEPENDENCY_ORDER)[number]>;
const everyTableListed: [Forgotten] extends [never] ? true : Forgotten = true;
void everyTableListed;
