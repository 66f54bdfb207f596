import type { Kysely, Migration } from "kysely";
import { INDEXED_TABLES_0047 } from "../search-index.js";
import { type Engine, columnTypes } from "./columns.js";
import { createTrigramIndex, trigramSchema } from "./0014-search.postgres.js";
import { createFtsIndex } from "./0014-search.sqlite.js";

/**
 * Issue 31. Folders people make themselves: each folder's place in its area's list (`position`,
 * lowest first, then id: existing folders keep their order of creation at 0), and whether a
 * group's members, not only its managers, make, rename, order and remove folders (0 or 1). Both
 * are covered by the group triggers of 0009 (folders and groups move their group's version on
 * every update), so feeds that show folders see a change at once.
 * Search everything a member can see: the full-text index of 0014 extended to group events,
 * personal events, chat messages and groups (search-index.ts `INDEXED_TABLES_0047`), built from
 * the rows already there.
 */
export const foldersAndSearch = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const t = columnTypes(engine);
    await db.schema
      .alterTable("folders")
      .addColumn("position", t.int32, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable("groups")
      .addColumn("members_manage_folders", t.int32, (c) => c.notNull().defaultTo(0))
      .execute();
    if (engine === "sqlite") {
      for (const indexed of INDEXED_TABLES_0047) await createFtsIndex(db, indexed);
      return;
    }
    const schema = await trigramSchema(db);
    for (const indexed of INDEXED_TABLES_0047) await createTrigramIndex(db, schema, indexed);
  },
});
