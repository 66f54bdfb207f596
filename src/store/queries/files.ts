import type { Kysely, Selectable } from "kysely";
import { type CabinetFile, type FileVersion, fileSearchText } from "../../domain/file.js";
import type { ContentKind } from "../../domain/item-id.js";
import type { Database } from "../schema.js";
import type { AttachmentsTable } from "../schema-content.js";
import type { FileRepo, NewFileVersion } from "./files.repo.js";
import type { RowOf } from "./rows.js";

function selectVersions(db: Kysely<Database>) {
  return db
    .selectFrom("file_versions")
    .innerJoin("users as version_author", "version_author.id", "file_versions.author_id")
    .selectAll("file_versions")
    .select("version_author.name as version_author_name");
}

/** Files joined with their current version and the names every read needs. */
function selectFiles(db: Kysely<Database>) {
  return db
    .selectFrom("files")
    .innerJoin("file_versions", (join) =>
      join
        .onRef("file_versions.file_id", "=", "files.id")
        .onRef("file_versions.version_number", "=", "files.current_version"),
    )
    .innerJoin("users as author", "author.id", "files.author_id")
    .innerJoin("users as version_author", "version_author.id", "file_versions.author_id")
    .leftJoin("folders", "folders.id", "files.folder_id")
    .selectAll("files")
    .select([
      "file_versions.version_number",
      "file_versions.file_name",
      "file_versions.size",
      "file_versions.mime_type",
      "file_versions.blob_key",
      "file_versions.width",
      "file_versions.height",
      "file_versions.thumbnail_key",
      "file_versions.author_id as version_author_id",
      "file_versions.comment",
      "file_versions.created_at as version_created_at",
      "author.name as author_name",
      "version_author.name as version_author_name",
      "folders.name as folder_name",
    ]);
}

function toVersion(row: RowOf<typeof selectVersions>): FileVersion {
  return {
    fileId: row.file_id,
    number: row.version_number,
    fileName: row.file_name,
    size: row.size,
    mimeType: row.mime_type,
    blobKey: row.blob_key,
    width: row.width,
    height: row.height,
    thumbnailKey: row.thumbnail_key,
    authorId: row.author_id,
    authorName: row.version_author_name,
    comment: row.comment,
    createdAt: row.created_at,
  };
}

function toFile(row: RowOf<typeof selectFiles>): CabinetFile {
  return {
    id: row.id,
    groupId: row.group_id,
    title: row.title,
    memo: row.memo,
    authorId: row.author_id,
    authorName: row.author_name,
    folderId: row.folder_id,
    folderName: row.folder_name,
    trashed: row.trashed === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    current: toVersion({
      ...row,
      id: 0,
      file_id: row.id,
      author_id: row.version_author_id,
      created_at: row.version_created_at,
    }),
  };
}

/** A comment attachment as an entry of the ATTACH folder: one version, named by its attachment id. */
function attachmentAsFile(
  row: Selectable<AttachmentsTable> & {
    parent_kind: ContentKind;
    parent_id: number;
    number: number;
    author_id: number;
    author_name: string;
  },
): CabinetFile {
  return {
    id: row.id,
    groupId: row.group_id,
    title: "",
    memo: "",
    authorId: row.author_id,
    authorName: row.author_name,
    folderId: null,
    folderName: null,
    trashed: false,
    createdAt: row.created_at,
    updatedAt: row.created_at,
    current: {
      fileId: row.id,
      number: 1,
      fileName: row.file_name,
      size: row.size,
      mimeType: row.content_type,
      blobKey: row.blob_key,
      width: null,
      height: null,
      thumbnailKey: null,
      authorId: row.author_id,
      authorName: row.author_name,
      comment: "",
      createdAt: row.created_at,
    },
    attachment: {
      parent: { kind: row.parent_kind, groupId: row.group_id, id: row.parent_id },
      commentNumber: row.number,
      position: row.position,
    },
  };
}

/** Files queries. */
export function fileRepo(db: Kysely<Database>): FileRepo {
  const find = async (id: number) => {
    const row = await selectFiles(db).where("files.id", "=", id).executeTakeFirst();
    return row && toFile(row);
  };
  const insertVersion = (fileId: number, number: number, version: NewFileVersion) =>
    db
      .insertInto("file_versions")
      .values({
        file_id: fileId,
        version_number: number,
        file_name: version.fileName,
        size: version.size,
        mime_type: version.mimeType,
        blob_key: version.blobKey,
        width: version.width,
        height: version.height,
        thumbnail_key: version.thumbnailKey,
        author_id: version.authorId,
        comment: version.comment,
        created_at: version.at,
      })
      .execute();
  // The index's text of the file (search-index.ts), replaced with each version in the same transaction.
  const writeSearchText = (file: CabinetFile, text: string | undefined) => {
    const body = fileSearchText(file, file.current.fileName, text ?? "");
    return db
      .insertInto("file_search_texts")
      .values({ file_id: file.id, body })
      .onConflict((oc) => oc.column("file_id").doUpdateSet({ body }))
      .execute();
  };
  return {
    async insert(file, version) {
      const { id } = await db
        .insertInto("files")
        .values({
          group_id: file.groupId,
          title: file.title,
          memo: file.memo,
          author_id: file.authorId,
          folder_id: file.folderId,
          current_version: 1,
          trashed: file.trashed ? 1 : 0,
          created_at: version.at,
          updated_at: version.at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await insertVersion(id, 1, version);
      const created = (await find(id)) as CabinetFile;
      await writeSearchText(created, version.searchText);
      return created;
    },
    async addVersion(fileId, version) {
      // Bumping the counter first takes the row's write lock, so concurrent uploads get distinct numbers.
      const { current_version: number } = await db
        .updateTable("files")
        .set((eb) => ({ current_version: eb("current_version", "+", 1), updated_at: version.at }))
        .where("id", "=", fileId)
        .returning("current_version")
        .executeTakeFirstOrThrow();
      await insertVersion(fileId, number, version);
      const changed = (await find(fileId)) as CabinetFile;
      await writeSearchText(changed, version.searchText);
      return changed;
    },
    findById: find,
    async findVersion(fileId, number) {
      const row = await selectVersions(db)
        .where("file_versions.file_id", "=", fileId)
        .where("file_versions.version_number", "=", number)
        .executeTakeFirst();
      return row && toVersion(row);
    },
    async findLiveByName(groupId, folderId, fileName) {
      const row = await selectFiles(db)
        .where("files.group_id", "=", groupId)
        .where("files.trashed", "=", 0)
        .where("files.folder_id", folderId === null ? "is" : "=", folderId)
        .where("file_versions.file_name", "=", fileName)
        .orderBy("files.updated_at", "desc")
        .orderBy("files.id", "desc")
        .limit(1)
        .executeTakeFirst();
      return row && toFile(row);
    },
    async list(groupId, filter, page) {
      let query = selectFiles(db)
        .where("files.group_id", "=", groupId)
        .where("files.trashed", "=", filter.kind === "trash" ? 1 : 0);
      if (filter.kind === "unclassified") query = query.where("files.folder_id", "is", null);
      if (filter.kind === "folder") query = query.where("files.folder_id", "=", filter.folderId);
      const rows = await query
        .orderBy("files.updated_at", "desc")
        .orderBy("files.id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toFile);
    },
    async listHistories(files, perFile) {
      if (files.length === 0) return [];
      // Versions are numbered 1..current without gaps and never removed, so "the newest n" is a range.
      const rows = await selectVersions(db)
        .where((eb) =>
          eb.or(
            files.map((file) =>
              eb.and([
                eb("file_versions.file_id", "=", file.id),
                eb("file_versions.version_number", ">", file.current.number - perFile),
              ]),
            ),
          ),
        )
        .orderBy("file_versions.file_id")
        .orderBy("file_versions.version_number", "desc")
        .execute();
      return rows.map(toVersion);
    },
    async listAttachmentsOfGroup(groupId, page) {
      const rows = await db
        .selectFrom("attachments")
        .innerJoin("comments", "comments.id", "attachments.comment_id")
        .innerJoin("users", "users.id", "comments.author_id")
        .where("attachments.group_id", "=", groupId)
        .selectAll("attachments")
        .select([
          "comments.parent_kind",
          "comments.parent_id",
          "comments.number",
          "comments.author_id",
          "users.name as author_name",
        ])
        .orderBy("attachments.created_at", "desc")
        .orderBy("attachments.id", "desc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(attachmentAsFile);
    },
    async update(id, change) {
      const set: { folder_id?: number | null; trashed?: number; updated_at: number } = { updated_at: change.at };
      if (change.folderId !== undefined) set.folder_id = change.folderId;
      if (change.trashed !== undefined) set.trashed = change.trashed ? 1 : 0;
      await db.updateTable("files").set(set).where("id", "=", id).execute();
    },
    async remove(id) {
      const versions = await db
        .selectFrom("file_versions")
        .select(["blob_key", "thumbnail_key"])
        .where("file_id", "=", id)
        .execute();
      await db.deleteFrom("file_versions").where("file_id", "=", id).execute();
      await db.deleteFrom("files").where("id", "=", id).execute();
      return versions.flatMap((version) =>
        version.thumbnail_key === null ? [version.blob_key] : [version.blob_key, version.thumbnail_key],
      );
    },
  };
}
