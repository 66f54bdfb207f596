// Table shapes of the groupware content (topics, comments, tasks, files), part of `Database` (schema.ts).
import type { Generated } from "kysely";
import type { ContentKind } from "../domain/kinds.js";

/** Board topics. */
export interface TopicsTable {
  id: Generated<number>;
  group_id: number;
  title: string;
  body: string;
  author_id: number;
  folder_id: number | null;
  allow_edit: number;
  fast_notify: number;
  trashed: number;
  published_at: number;
  updated_at: number;
}

/** Comments on topics, tasks and files. */
export interface CommentsTable {
  id: Generated<number>;
  group_id: number;
  parent_kind: ContentKind;
  parent_id: number;
  number: number;
  author_id: number;
  body: string;
  reply_to: number | null;
  created_at: number;
  /** The last edit by its author (migration 0050); null when never edited. */
  edited_at: number | null;
}

/** The last comment number handed out per parent: numbers are never reused, even after deletes. */
export interface CommentCountersTable {
  parent_kind: ContentKind;
  parent_id: number;
  last_number: number;
}

/** Live and expired edit leases on topics (docs/api.md "Board"). */
export interface TopicLeasesTable {
  topic_id: number;
  user_id: number;
  since: number;
  until: number;
}

/** Tasks of a group; `sequence` numbers them within the group. Due dates of all-day tasks are midnight UTC. */
export interface TasksTable {
  id: Generated<number>;
  group_id: number;
  sequence: number;
  title: string;
  summary: string;
  author_id: number;
  assignee_id: number | null;
  due_at: number | null;
  all_day: number;
  priority: "S" | "A" | "B" | "C";
  status: "NOT_STARTED" | "IN_PROGRESS" | "ON_HOLD" | "COMPLETED";
  folder_id: number | null;
  trashed: number;
  created_at: number;
  updated_at: number;
}

/** A user's own ToDo items (migration 0024); `sequence` numbers them per owner. */
export interface PersonalTasksTable {
  id: Generated<number>;
  user_id: number;
  sequence: number;
  title: string;
  summary: string;
  due_at: number | null;
  all_day: number;
  priority: TasksTable["priority"];
  status: TasksTable["status"];
  created_at: number;
  updated_at: number;
}

/** Shared-folder files; `current_version` is the newest row of file_versions. */
export interface FilesTable {
  id: Generated<number>;
  group_id: number;
  title: string;
  memo: string;
  author_id: number;
  folder_id: number | null;
  current_version: number;
  trashed: number;
  created_at: number;
  updated_at: number;
}

/** Every version of a file; the bytes live in the blob store under `blob_key`. */
export interface FileVersionsTable {
  id: Generated<number>;
  file_id: number;
  version_number: number;
  file_name: string;
  size: number;
  mime_type: string;
  blob_key: string;
  width: number | null;
  height: number | null;
  thumbnail_key: string | null;
  author_id: number;
  comment: string;
  created_at: number;
}

/** Files attached to comments; the bytes live in the blob store under `blob_key`. */
export interface AttachmentsTable {
  id: Generated<number>;
  group_id: number;
  comment_id: number;
  position: number;
  file_name: string;
  content_type: string;
  size: number;
  blob_key: string;
  created_at: number;
}

/** The searchable text of a shared file (migration 0014): title, memo, current file name, start of a text file. */
export interface FileSearchTextsTable {
  file_id: number;
  body: string;
}
