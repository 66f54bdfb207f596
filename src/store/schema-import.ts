/** What an archive's import made of rows of no group (migration 0049). */
export interface ArchiveKeysTable {
  key: string;
  target_id: number;
  created_at: number;
}

/** What an import made of each row (migration 0044): the key of the row, the id made of it. */
export interface ImportKeysTable {
  group_id: number;
  key: string;
  target_id: number;
  created_at: number;
}
