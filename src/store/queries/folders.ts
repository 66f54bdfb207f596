import type { Kysely, Selectable } from "kysely";
import type { Folder } from "../../domain/folder.js";
import type { Database, FoldersTable } from "../schema.js";
import type { FolderRepo } from "../store.js";

function toFolder(row: Selectable<FoldersTable>): Folder {
  return { id: row.id, groupId: row.group_id, area: row.area, name: row.name };
}

/** Folders queries. */
export function folderRepo(db: Kysely<Database>): FolderRepo {
  return {
    async insert(folder) {
      const row = await db
        .insertInto("folders")
        .values({ group_id: folder.groupId, area: folder.area, name: folder.name, created_at: folder.createdAt })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toFolder(row);
    },
    async findById(id) {
      const row = await db.selectFrom("folders").selectAll().where("id", "=", id).executeTakeFirst();
      return row && toFolder(row);
    },
    async list(groupId, area, page) {
      const rows = await db
        .selectFrom("folders")
        .selectAll()
        .where("group_id", "=", groupId)
        .where("area", "=", area)
        .orderBy("id")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toFolder);
    },
  };
}
