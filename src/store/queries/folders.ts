import type { Kysely, Selectable } from "kysely";
import type { Folder, FolderArea } from "../../domain/folder.js";
import type { Database, FoldersTable } from "../schema.js";
import type { PageWindow } from "../page-window.js";

/** Folders of a group's areas. */
export interface FolderRepo {
  insert(folder: { groupId: number; area: FolderArea; name: string; createdAt: number }): Promise<Folder>;
  findById(id: number): Promise<Folder | undefined>;
  list(groupId: number, area: FolderArea, page: PageWindow): Promise<Folder[]>;
}

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
