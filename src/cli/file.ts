import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import type { CabinetFile } from "../domain/file.js";
import { formatContentId, formatPair } from "../domain/item-id.js";
import { uploadFileAsOperator, uploadFileVersionAsOperator, trashFileAsOperator } from "../services/file/file-admin.js";
import {
  type CommandGroup,
  type Values,
  commandGroup,
  folderOption,
  groupOption,
  itemOption,
  optional,
  required,
} from "./admin.js";
import { UsageError } from "./options.js";

function shown(action: string, file: CabinetFile) {
  const version = file.current;
  return {
    [action]: "file",
    id: formatContentId({ kind: "CABINET", groupId: file.groupId, id: file.id }),
    fileName: version.fileName,
    version: version.number,
    size: version.size,
    mimeType: version.mimeType,
    ...(version.width === null ? {} : { width: version.width, height: version.height }),
    folder: file.folderId === null ? null : formatPair(file.folderId),
    trashed: file.trashed,
  };
}

/** The file behind `--path`, checked before anything is written; its bytes are streamed, never held whole. */
async function pathOption(values: Values): Promise<{ path: string; name: string }> {
  const path = required(values, "path");
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw new UsageError(`--path: "${path.slice(0, 40)}" is not a readable file`);
  return { path, name: optional(values, "name") ?? basename(path) };
}

/** `kairan file add|add-version|trash`. */
export const FILE_COMMAND: CommandGroup = commandGroup("file", "add files and versions to a group's shared folder", {
  add: {
    summary: "add a file read from disk (version 1)",
    usage:
      "--group ID --author EMAIL --path FILE [--name NAME] [--title TEXT] [--memo TEXT] [--folder ID] [--comment TEXT]",
    options: {
      group: { type: "string" },
      author: { type: "string" },
      path: { type: "string" },
      name: { type: "string" },
      title: { type: "string" },
      memo: { type: "string" },
      folder: { type: "string" },
      comment: { type: "string" },
    },
    async run(values, _p, context) {
      const groupId = groupOption(values);
      const authorEmail = required(values, "author");
      const folderId = folderOption(values);
      const { path, name } = await pathOption(values);
      const input = {
        groupId,
        authorEmail,
        fileName: name,
        source: createReadStream(path),
        title: optional(values, "title") ?? "",
        memo: optional(values, "memo") ?? "",
        folderId,
        comment: optional(values, "comment") ?? "",
      };
      return shown("added", await uploadFileAsOperator(context, input));
    },
  },
  "add-version": {
    summary: "add the next version of a file, read from disk (named after it unless --name)",
    usage: "--file ID --author EMAIL --path FILE [--name NAME] [--comment TEXT]",
    options: {
      file: { type: "string" },
      author: { type: "string" },
      path: { type: "string" },
      name: { type: "string" },
      comment: { type: "string" },
    },
    async run(values, _p, context) {
      const ref = itemOption(values, "file", "CABINET");
      const authorEmail = required(values, "author");
      const { path, name } = await pathOption(values);
      const input = {
        ref,
        authorEmail,
        fileName: name,
        source: createReadStream(path),
        comment: optional(values, "comment") ?? "",
      };
      return shown("added-version", await uploadFileVersionAsOperator(context, input));
    },
  },
  trash: {
    summary: "move a file to the trash",
    usage: "--file ID",
    options: { file: { type: "string" } },
    async run(values, _p, context) {
      return shown("trashed", await trashFileAsOperator(context, { ref: itemOption(values, "file", "CABINET") }));
    },
  },
});
