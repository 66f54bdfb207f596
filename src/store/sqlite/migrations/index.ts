import type { Migration } from "kysely";
import { core } from "./0001-core.js";
import { groupware } from "./0003-groupware.js";

/** SQLite migrations in order; names sort in the order they must run. */
export const sqliteMigrations: Readonly<Record<string, Migration>> = {
  "0001-core": core,
  "0003-groupware": groupware,
};
