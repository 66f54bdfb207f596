import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { ExportFile } from "../domain/cybozulive/bundle.js";
import { canonicalZone } from "../domain/time-zone.js";
import { type ImportTarget, importCybozuLive } from "../services/import/cybozulive.js";
import { EXPORT_FILE, readExportZip } from "../services/import/cybozulive-zip.js";
import { type CommandGroup, type Values, commandGroup, groupOption, optional } from "./admin.js";
import { CommandError, UsageError } from "./options.js";
import { progressWriter } from "./progress.js";

/** The export's times carry no zone: the original service ran on Japanese time. */
const DEFAULT_ZONE = "Asia/Tokyo";

/** `--group ID` or `--group-name NAME`, exactly one. @throws UsageError */
function targetOption(values: Values): ImportTarget {
  const name = optional(values, "group-name");
  const hasId = optional(values, "group") !== undefined;
  if (hasId === (name !== undefined)) throw new UsageError("give exactly one of --group ID and --group-name NAME");
  return name === undefined ? { groupId: groupOption(values) } : { groupName: name };
}

/** `--tz ZONE`, an IANA zone, Asia/Tokyo when absent. @throws UsageError */
function zoneOption(values: Values): string {
  const text = optional(values, "tz") ?? DEFAULT_ZONE;
  const zone = canonicalZone(text);
  if (zone === undefined)
    throw new UsageError(`--tz must be an IANA time zone such as Asia/Tokyo (got "${text.slice(0, 40)}")`);
  return zone;
}

/**
 * The export files of a folder (in name order; its other files are left alone) or of a zip.
 * @throws UsageError a path that is neither; CommandError a folder or zip without export files;
 *   ImportFileError a zip that cannot be read or passes a bound
 */
async function readExportInput(path: string | undefined): Promise<ExportFile[]> {
  if (path === undefined || path === "") throw new UsageError("the export's folder or zip file (DIR) is required");
  if (!statSync(path).isDirectory()) {
    if (!/\.zip$/i.test(path))
      throw new UsageError(`${path} is neither a folder nor a .zip file; give the folder or zip of the export`);
    const files = await readExportZip({ name: basename(path), path });
    if (files.length === 0) throw new CommandError(`${basename(path)}: no .csv or .txt files in the zip`);
    return files;
  }
  const names = readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isFile() && EXPORT_FILE.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  if (names.length === 0) throw new CommandError(`${path}: no .csv or .txt files in the folder`);
  return names.map((name) => ({ name, bytes: readFileSync(join(path, name)) }));
}

/** `kairan import cybozulive DIR|FILE.zip`: the original service's CSV export into a group. */
export const IMPORT_COMMAND: CommandGroup = commandGroup(
  "import",
  "bring in data from elsewhere: the original service's export (cybozulive)",
  {
    cybozulive: {
      summary:
        "import a folder or zip of the original service's export (CSV files of the board, ToDo list, events and member list; " +
        "chat rooms' .txt files) into a group, " +
        "in one transaction; prints counts of what was (or, with --dry-run, would be) created and every problem. " +
        "A second run creates nothing. Times are read in --tz (default Asia/Tokyo)",
      usage: "DIR|FILE.zip (--group ID | --group-name NAME) [--tz ZONE] [--dry-run]",
      options: {
        group: { type: "string" },
        "group-name": { type: "string" },
        tz: { type: "string" },
        "dry-run": { type: "boolean" },
      },
      positionals: 1,
      async run(values, positionals, context, io) {
        const target = targetOption(values);
        const timeZone = zoneOption(values);
        const files = await readExportInput(positionals[0]);
        const progress = io.rawStderr ? progressWriter(io.rawStderr, io.rawStderr.isTTY === true) : undefined;
        try {
          const dryRun = values["dry-run"] === true;
          return await importCybozuLive(context, { files, target, timeZone, dryRun, onProgress: progress?.update });
        } finally {
          // The line ends before the report (or the error) is printed.
          progress?.done();
        }
      },
    },
  },
);
