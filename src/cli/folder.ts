import { FOLDER_AREA_WORDS, type Folder, type FolderArea } from "../domain/folder.js";
import { formatPair, parsePair } from "../domain/item-id.js";
import type { FolderChange } from "../services/folder/folder-write.js";
import { changeFolderAsOperator, listFoldersAsOperator } from "../services/folder/folder-admin.js";
import { type CommandGroup, type Subcommand, type Values, commandGroup, groupOption, required } from "./admin.js";
import { UsageError } from "./options.js";

const KINDS = Object.keys(FOLDER_AREA_WORDS).join(", ");

/** `--kind board|task|cabinet`. @throws UsageError */
function kindOption(values: Values): FolderArea {
  const text = required(values, "kind");
  const area = FOLDER_AREA_WORDS[text.toLowerCase()];
  if (area === undefined) throw new UsageError(`--kind must be one of ${KINDS} (got "${text.slice(0, 40)}")`);
  return area;
}

/** `--folder 1:3`, required. @throws UsageError */
function folderIdOption(values: Values): number {
  const text = required(values, "folder");
  const id = parsePair(text);
  if (id === undefined) throw new UsageError(`--folder must be a folder id such as 1:3 (got "${text.slice(0, 40)}")`);
  return id;
}

/** `--position N` (0 is first). @throws UsageError */
function positionOption(values: Values): number {
  const text = required(values, "position");
  if (!/^\d{1,6}$/.test(text))
    throw new UsageError(`--position must be a whole number from 0 (got "${text.slice(0, 40)}")`);
  return Number(text);
}

function shown(action: string, folder: Folder) {
  const kind = Object.keys(FOLDER_AREA_WORDS).find((word) => FOLDER_AREA_WORDS[word] === folder.area);
  return { [action]: "folder", id: formatPair(folder.id), group: formatPair(folder.groupId), kind, name: folder.name };
}

const WHERE = { group: { type: "string" }, kind: { type: "string" } } as const;
const WHERE_USAGE = "--group ID --kind board|task|cabinet";

/** A subcommand that makes one change to an area's folders and prints the folder. */
function changing(
  summary: string,
  usage: string,
  options: Subcommand["options"],
  action: string,
  change: (values: Values) => FolderChange,
): Subcommand {
  return {
    summary,
    usage: `${WHERE_USAGE} ${usage}`,
    options: { ...WHERE, ...options },
    async run(values, _p, context) {
      const input = { groupId: groupOption(values), area: kindOption(values), change: change(values) };
      const folder = await changeFolderAsOperator(context, input);
      if (action !== "moved") return shown(action, folder);
      const order = await listFoldersAsOperator(context, input);
      return { ...shown(action, folder), position: order.findIndex((f) => f.id === folder.id) };
    },
  };
}

/** `kairan folder add|rename|move|remove|list`. */
export const FOLDER_COMMAND: CommandGroup = commandGroup(
  "folder",
  "make, rename, order and remove the folders of a group's board, tasks and files",
  {
    add: changing("add a folder at the end of the list", "--name TEXT", { name: { type: "string" } }, "added", (v) => ({
      kind: "add",
      name: required(v, "name"),
    })),
    rename: changing(
      "rename a folder",
      "--folder ID --name TEXT",
      { folder: { type: "string" }, name: { type: "string" } },
      "renamed",
      (v) => ({ kind: "rename", folderId: folderIdOption(v), name: required(v, "name") }),
    ),
    move: changing(
      "put a folder at a place in the list (0 is first; past the end: last)",
      "--folder ID --position N",
      { folder: { type: "string" }, position: { type: "string" } },
      "moved",
      (v) => ({ kind: "move", folderId: folderIdOption(v), position: positionOption(v) }),
    ),
    remove: changing(
      "remove a folder; what it held becomes unclassified",
      "--folder ID",
      { folder: { type: "string" } },
      "removed",
      (v) => ({ kind: "remove", folderId: folderIdOption(v) }),
    ),
    list: {
      summary: "list an area's folders in order",
      usage: WHERE_USAGE,
      options: WHERE,
      async run(values, _p, context) {
        const folders = await listFoldersAsOperator(context, {
          groupId: groupOption(values),
          area: kindOption(values),
        });
        return folders.map((folder, position) => ({ id: formatPair(folder.id), name: folder.name, position }));
      },
    },
  },
);
