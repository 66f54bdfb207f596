import { fileSearchText, isIndexedText } from "../../domain/file.js";
import type { ServiceContext } from "../context.js";
import { readTextStart } from "../file/file-content.js";

/** What `kairan reindex` did. */
export interface ReindexReport {
  readonly files: number;
  /** Files whose text was read from their bytes (plain text and CSV). */
  readonly textFiles: number;
  /** Text files whose bytes could not be read (missing from the blob store): indexed without their text. */
  readonly unreadable: number;
  readonly milliseconds: number;
  readonly databaseBytesBefore: number;
  readonly databaseBytesAfter: number;
}

/** Files written per transaction: their texts (up to 64 KB each) are held in memory meanwhile. */
const FILES_PER_TRANSACTION = 200;

/**
 * Rebuilds the full-text index from the stored items: every shared file's searchable text again
 * (the bytes of plain-text files read from the blob store, outside any transaction), then the
 * engine's index structures. Safe while the server runs: each step is its own transaction.
 */
export async function rebuildSearchIndex(ctx: ServiceContext): Promise<ReindexReport> {
  const started = performance.now();
  const databaseBytesBefore = await ctx.store.read((tx) => tx.search.databaseBytes());
  const files = await ctx.store.read((tx) => tx.search.filesToIndex());
  let textFiles = 0;
  let unreadable = 0;
  for (let start = 0; start < files.length; start += FILES_PER_TRANSACTION) {
    const batch: { id: number; body: string }[] = [];
    for (const file of files.slice(start, start + FILES_PER_TRANSACTION)) {
      let text = "";
      if (isIndexedText(file.mimeType)) {
        textFiles++;
        text = await readTextStart(ctx.blobs, file.blobKey).catch(() => {
          unreadable++;
          return "";
        });
      }
      batch.push({ id: file.id, body: fileSearchText(file, file.fileName, text) });
    }
    await ctx.store.transaction(async (tx) => {
      for (const { id, body } of batch) await tx.search.setFileText(id, body);
    });
  }
  await ctx.store.transaction((tx) => tx.search.rebuild());
  return {
    files: files.length,
    textFiles,
    unreadable,
    milliseconds: Math.round(performance.now() - started),
    databaseBytesBefore,
    databaseBytesAfter: await ctx.store.read((tx) => tx.search.databaseBytes()),
  };
}
