// `kairan group archive|restore|delete ID`: an operator's acts on one group, through the same
// services as /admin/groups.
import { formatPair, parseGroupParameter } from "../domain/item-id.js";
import { OPERATOR } from "../services/account/site-admin.js";
import { deleteGroup } from "../services/group/group-delete.js";
import { setGroupArchived } from "../services/group/group-admin.js";
import type { Subcommand } from "./admin.js";
import { UsageError } from "./options.js";

/** The one group id argument (`1:12` or `GROUP,1:12`). @throws UsageError */
function groupArgument(positionals: readonly string[]): number {
  const text = positionals[0];
  if (positionals.length !== 1 || text === undefined || text === "")
    throw new UsageError(`give exactly one group id such as 1:1 (got ${positionals.length} arguments)`);
  const id = parseGroupParameter(text);
  if (id === undefined) throw new UsageError(`the group id must be such as 1:1 (got "${text.slice(0, 40)}")`);
  return id;
}

function archiving(archived: boolean): Subcommand {
  return {
    summary: archived
      ? "archive a group: read-only (its content and members), reads go on"
      : "restore an archived group: writes are accepted again",
    usage: "ID",
    positionals: 1,
    options: {},
    async run(_values, positionals, context) {
      const { group, changed } = await setGroupArchived(context, OPERATOR, {
        groupId: groupArgument(positionals),
        archived,
      });
      return { updated: "group", id: formatPair(group.id), name: group.name, archived, changed };
    },
  };
}

/** The subcommands `kairan group` adds to add and list. */
export const GROUP_ADMIN_SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  archive: archiving(true),
  restore: archiving(false),
  delete: {
    summary: "delete a group for good with its content, files and members (--yes to confirm)",
    usage: "ID --yes",
    positionals: 1,
    options: { yes: { type: "boolean" } },
    async run(values, positionals, context) {
      const groupId = groupArgument(positionals);
      if (values.yes !== true) throw new UsageError("deleting a group cannot be undone: add --yes to confirm");
      const { group, blobsRemoved } = await deleteGroup(context, OPERATOR, { groupId });
      return { deleted: "group", id: formatPair(group.id), name: group.name, blobsRemoved };
    },
  },
};
