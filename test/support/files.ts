import sharp from "sharp";
import type { CabinetFile } from "../../src/domain/file.js";
import type { Group } from "../../src/domain/group.js";
import type { User } from "../../src/domain/user.js";
import { uploadFileAsOperator, uploadFileVersionAsOperator } from "../../src/services/file/file-admin.js";
import type { TestServer } from "./server.js";

/** A PNG of the given size, made with sharp so its dimensions are real. */
export async function pngOf(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } })
    .png()
    .toBuffer();
}

/** Adds a file through the same service the CLI uses (bytes into the server's blob store). */
export async function addTestFile(
  server: TestServer,
  group: Group,
  author: User,
  options: {
    fileName?: string;
    bytes?: Uint8Array;
    title?: string;
    memo?: string;
    folderId?: number | null;
    comment?: string;
  } = {},
): Promise<CabinetFile> {
  return uploadFileAsOperator(server, {
    groupId: group.id,
    authorEmail: author.email,
    fileName: options.fileName ?? "notes.txt",
    source: options.bytes ?? Buffer.from("hello"),
    title: options.title ?? "",
    memo: options.memo ?? "",
    folderId: options.folderId ?? null,
    comment: options.comment ?? "",
  });
}

/** Adds the next version of a file. */
export async function addTestVersion(
  server: TestServer,
  file: CabinetFile,
  author: User,
  bytes: Uint8Array,
  comment = "",
): Promise<CabinetFile> {
  const ref = { kind: "CABINET" as const, groupId: file.groupId, id: file.id };
  return uploadFileVersionAsOperator(server, {
    ref,
    authorEmail: author.email,
    fileName: undefined,
    source: bytes,
    comment,
  });
}
