// `kairan export FILE [--group ID ...]` and `kairan import FILE`: the portable archive
// (services/archive/). Each prints what it did as JSON, like the other operator commands.
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { basename } from "node:path";
import { loadConfig } from "../config/config.js";
import type { Locale } from "../domain/task.js";
import { formatGroupId, parseGroupParameter } from "../domain/item-id.js";
import { archiveMembers } from "../present/archive.js";
import { pageRows } from "../present/archive-read.js";
import { archiveParts, exportGroups } from "../services/archive/archive-export.js";
import { importArchive } from "../services/archive/archive-import.js";
import { writeArchiveZip } from "../services/archive/archive-zip-write.js";
import { openArchive } from "../services/archive/archive-zip-read.js";
import type { ServiceContext } from "../services/context.js";
import { type CommandGroup, type Subcommand, runSubcommand } from "./admin.js";
import type { CommandIo } from "./io.js";
import { UsageError, configFlags } from "./options.js";

const EXPORT: Subcommand = {
  summary:
    "write the portable archive of every group (or of each --group) into FILE, a zip: Atom feeds of each " +
    "group's content (topics, comments, tasks, files with every version, events with their exceptions, members, " +
    "folders, likes, favorites, notification settings), without --group also the chat rooms and messages, " +
    "the accounts they name (no passwords), the stored files, " +
    "and manifest.json with counts and sha256 checksums. `kairan import FILE` reads it into another Kairan",
  usage: "FILE [--group ID ...]",
  options: { group: { type: "string", multiple: true } },
  positionals: 1,
  async run(values, positionals, context, io) {
    const file = positionals[0];
    if (file === undefined || file === "") throw new UsageError("the archive's file name (FILE) is required");
    const config = loadConfig(configFlags(values), io.env);
    const baseUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
    const asked = ((values as Readonly<Record<string, unknown>>).group ?? []) as readonly string[];
    const groupIds = asked.map((text) => {
      const id = parseGroupParameter(text);
      if (id === undefined) throw new UsageError(`--group must be a group id such as 1:1 (got "${text.slice(0, 40)}")`);
      return id;
    });
    return exportArchive(context, file, groupIds, { baseUrl, locale: config.locale });
  },
};

/** Writes the archive to `file` (through a temporary name: a failed export leaves no file behind). */
export async function exportArchive(
  context: ServiceContext,
  file: string,
  groupIds: readonly number[],
  { baseUrl, locale }: { baseUrl: string; locale: Locale },
) {
  const groups = await exportGroups(context, groupIds);
  const now = context.clock.now();
  const partial = `${file}.partial-${process.pid}`;
  try {
    const manifest = await writeArchiveZip(
      archiveMembers(archiveParts(context, groups, { chat: groupIds.length === 0 }), baseUrl, now, locale),
      { groups, now },
      createWriteStream(partial),
    );
    await rename(partial, file);
    return {
      file,
      groups: groups.map(formatGroupId),
      counts: manifest.counts,
      members: Object.keys(manifest.members).length + 1,
    };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

const IMPORT: Subcommand = {
  summary:
    "read a portable archive written by `kairan export` into this site, in one transaction: accounts by e-mail " +
    "address (the others as placeholders that an invitation can claim), each group with its content, ids kept " +
    "where free and renumbered where taken. A second import of the same archive creates nothing. A damaged " +
    "archive (checksum, missing member, malformed XML) changes nothing",
  usage: "FILE",
  options: {},
  positionals: 1,
  async run(_values, positionals, context) {
    const file = positionals[0];
    if (file === undefined || file === "") throw new UsageError("the archive's file name (FILE) is required");
    const archive = await openArchive(file, basename(file));
    try {
      return await importArchive(context, archive, basename(file), pageRows);
    } finally {
      archive.close();
    }
  },
};

/** `kairan export`. */
export const EXPORT_COMMAND: CommandGroup = {
  summary: "write the portable archive (a zip of Atom feeds, stored files and a manifest)",
  help: `Usage: kairan export ${EXPORT.usage}\n\n${EXPORT.summary}.`,
  run: (args: readonly string[], io: CommandIo) => runSubcommand("export", EXPORT, args, io),
};

/** `kairan import FILE` beside `kairan import cybozulive ...`: a first word that is no subcommand is a file. */
export function withArchiveImport(csv: CommandGroup): CommandGroup {
  return {
    summary: "bring in data: a portable archive (FILE) or the original service's export (cybozulive)",
    help: `${csv.help}\n\nUsage: kairan import FILE\n\n${IMPORT.summary}.`,
    run: (args, io) => {
      const [first] = args;
      if (first === undefined || first === "cybozulive" || first.startsWith("-")) return csv.run(args, io);
      return runSubcommand("import", IMPORT, args, io);
    },
  };
}
