import { type Kysely, type Selectable, sql } from "kysely";
import type { Folder, FolderArea } from "../../domain/folder.js";
import type { Database, FoldersTable } from "../schema.js";
import type { PageWindow } from "../page-window.js";

/** Folders of a group's areas. */
export interface FolderRepo {
  /** Adds a folder at the end of its area's list. */
  insert(folder: { groupId: number; area: FolderArea; name: string; createdAt: number }): Promise<Folder>;
  findById(id: number): Promise<Folder | undefined>;
  /** A page of an area's folders in their order (position, then id). */
  list(groupId: number, area: FolderArea, page: PageWindow): Promise<Folder[]>;
  /** How many folders an area has. */
  count(groupId: number, area: FolderArea): Promise<number>;
  rename(id: number, name: string): Promise<void>;
  /** Writes each folder's position as its index in `ids` (the area's whole list, in its new order). */
  reorder(ids: readonly number[]): Promise<void>;
  /** Takes the folder's items out of it (they become unclassified, their times kept), then deletes it. */
  remove(folder: Folder): Promise<void>;
}

const ITEM_TABLES: Readonly<Record<FolderArea, "topics" | "tasks" | "files">> = {
  BOARD: "topics",
  TASK: "tasks",
  CABINET: "files",
};

function toFolder(row: Selectable<FoldersTable>): Folder {
  return { id: row.id, groupId: row.group_id, area: row.area, name: row.name, position: row.position };
}

/** Folders queries. */
export function folderRepo(db: Kysely<Database>): FolderRepo {
  return {
    async insert(folder) {
      // One statement: the next position is read and written together.
      const row = await db
        .insertInto("folders")
        .values({
          group_id: folder.groupId,
          area: folder.area,
          name: folder.name,
          created_at: folder.createdAt,
          position: sql<number>`(SELECT COALESCE(MAX(position), -1) + 1 FROM folders
            WHERE group_id = ${folder.groupId} AND area = ${folder.area})`,
        })
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
        .orderBy("position")
        .orderBy("id")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toFolder);
    },
    async count(groupId, area) {
      const row = await db
        .selectFrom("folders")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("group_id", "=", groupId)
        .where("area", "=", area)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async rename(id, name) {
      await db.updateTable("folders").set({ name }).where("id", "=", id).execute();
    },
    async reorder(ids) {
      for (const [position, id] of ids.entries())
        await db
          .updateTable("folders")
          .set({ position })
          .where("id", "=", id)
          .where("position", "<>", position)
          .execute();
    },
    async remove(folder) {
      await db
        .updateTable(ITEM_TABLES[folder.area])
        .set({ folder_id: null })
        .where("folder_id", "=", folder.id)
        .execute();
      await db.deleteFrom("folders").where("id", "=", folder.id).execute();
    },
  };
}
