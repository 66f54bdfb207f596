// `kairan import cybozulive`: a folder of the original service's CSV export into one group, in one
// transaction. The files are read and every record checked before anything is written; then the
// people, topics, tasks, events and chat rooms are written with their original authors and times. A second
// run finds what the first made by its import keys and makes nothing again. A dry run does
// everything in the transaction and rolls it back, so it reports exactly what a real run would.
import { type ExportFile, type ImportProblem, type ReadFile, readExport } from "../../domain/cybozulive/bundle.js";
import { groupTarget } from "../../domain/audit.js";
import { ConflictError, NotFoundError } from "../../domain/errors.js";
import { type Group, requireNotArchived } from "../../domain/group.js";
import { checkGroupDraft } from "../../domain/group-rules.js";
import { formatPair } from "../../domain/item-id.js";
import type { Tx } from "../../store/store.js";
import { type Administrator, OPERATOR, requireAdministrator } from "../account/site-admin.js";
import { recordAudit } from "../audit/audit-log.js";
import { insertGroup } from "../group/group-manage.js";
import type { ServiceContext } from "../context.js";
import { importPeople } from "./cybozulive-people.js";
import { type ImportPlan, planImport } from "./cybozulive-plan.js";
import {
  type ImportCounts,
  type WriteScope,
  writeChatRoom,
  writeEvent,
  writeTask,
  writeTopic,
} from "./cybozulive-write.js";

/** Where the import goes: an existing group, or the group of that name (made when there is none). */
export type ImportTarget = { readonly groupId: number } | { readonly groupName: string };

/** What an import (or a dry run) did and found. */
export interface ImportReport {
  readonly dryRun: boolean;
  /** The group; its id is null when a dry run would have made it. */
  readonly group: { readonly id: number | null; readonly name: string; readonly created: boolean };
  readonly timeZone: string;
  readonly files: readonly ReadFile[];
  /** What was made (or would be, in a dry run). */
  readonly created: ImportCounts;
  /** What an earlier run had made already, and was left as it is. */
  readonly alreadyImported: ImportCounts;
  readonly problems: readonly ImportProblem[];
}

/** How far an import is: files read, rows (topics, tasks, events, comments, rooms, messages) planned and written. */
export interface ImportProgress {
  readonly filesRead: number;
  readonly files: number;
  /** 0 until the files are read and checked. */
  readonly rowsPlanned: number;
  /** Written, or found written by an earlier run. */
  readonly rowsWritten: number;
}

/** Thrown out of a dry run's transaction so that it rolls back, carrying its report. */
class DryRunDone extends Error {
  constructor(readonly report: ImportReport) {
    super("dry run");
  }
}

/**
 * Imports an export's files into a group; `timeZone` is a checked IANA zone the export's times are read in.
 * `by` is who imports (the operator when absent; an administrator in the browser, the role checked
 * inside the transaction): the audit rows name them.
 * @throws ImportFileError a file that breaks the format or a record that breaks a rule (nothing is written)
 * @throws ForbiddenError ADMIN_REQUIRED;
 *   NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_ARCHIVED; ConflictError IMPORT_GROUP_NAME_AMBIGUOUS;
 *   ValidationError GROUP_NAME_* (a new group's name)
 */
export async function importCybozuLive(
  ctx: ServiceContext,
  input: {
    files: readonly ExportFile[];
    target: ImportTarget;
    timeZone: string;
    dryRun: boolean;
    by?: Administrator;
    /** Told how far the import is, often (a caller that shows it keeps the pace). */
    onProgress?: (progress: ImportProgress) => void;
  },
): Promise<ImportReport> {
  const files = input.files.length;
  const by = input.by ?? OPERATOR;
  const tell = input.onProgress ?? (() => {});
  const bundle = readExport(input.files, (filesRead) => tell({ filesRead, files, rowsPlanned: 0, rowsWritten: 0 }));
  const plan = planImport(bundle, input.timeZone);
  const rowsPlanned = rowsOf(plan);
  tell({ filesRead: files, files, rowsPlanned, rowsWritten: 0 });
  try {
    return await ctx.store.transaction(async (tx) => {
      await requireAdministrator(tx, by);
      const at = ctx.clock.now();
      const { group, created: groupCreated } = await targetGroup(tx, input.target, at);
      if (groupCreated)
        await recordAudit(tx, ctx.clock, {
          action: "group.create",
          actor: by.audit,
          target: groupTarget(group),
          groupId: group.id,
          details: { name: group.name, via: "import" },
        });
      const keys = await tx.importKeys.listOf(group.id);
      const problems = [...plan.problems];
      const people = await importPeople(
        tx,
        {
          groupId: group.id,
          names: plan.names,
          members: bundle.members,
          keys,
          places: plan.places,
          problems,
          actor: by.audit,
        },
        ctx.clock,
      );
      const created = counts({ accounts: people.accountsCreated, members: people.membersJoined });
      const found = counts({});
      const scope: WriteScope = { tx, groupId: group.id, people: people.ids, keys, created, found, problems, at };
      await writeAll(scope, plan, (rowsWritten) => tell({ filesRead: files, files, rowsPlanned, rowsWritten }));
      const report: ImportReport = {
        dryRun: input.dryRun,
        group: { id: input.dryRun && groupCreated ? null : group.id, name: group.name, created: groupCreated },
        timeZone: input.timeZone,
        files: bundle.files,
        created,
        alreadyImported: found,
        problems,
      };
      if (input.dryRun) throw new DryRunDone(report);
      return report;
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.report;
    throw error;
  }
}

/** The rows an import writes: each item with its comments, each room with its messages. */
function rowsOf(plan: ImportPlan): number {
  const items = [...plan.topics, ...plan.tasks, ...plan.events];
  const comments = items.reduce((sum, item) => sum + item.comments.length, 0);
  const messages = plan.chatRooms.reduce((sum, room) => sum + room.messages.length, 0);
  return items.length + comments + plan.chatRooms.length + messages;
}

async function writeAll(scope: WriteScope, plan: ImportPlan, written: (rows: number) => void): Promise<void> {
  let rows = 0;
  for (const topic of plan.topics) {
    await writeTopic(scope, topic);
    written((rows += 1 + topic.comments.length));
  }
  for (const task of plan.tasks) {
    await writeTask(scope, task);
    written((rows += 1 + task.comments.length));
  }
  const menus = new Map(
    (await scope.tx.events.listNamed("event_menus", scope.groupId)).map((menu) => [menu.name, menu.id]),
  );
  for (const event of plan.events) {
    await writeEvent(scope, event, menus);
    written((rows += 1 + event.comments.length));
  }
  for (const room of plan.chatRooms) {
    await writeChatRoom(scope, room);
    written((rows += 1 + room.messages.length));
  }
}

async function targetGroup(tx: Tx, target: ImportTarget, at: number): Promise<{ group: Group; created: boolean }> {
  if ("groupId" in target) {
    const group = await tx.groups.findById(target.groupId);
    if (!group) throw new NotFoundError("GROUP_NOT_FOUND", `There is no group ${formatPair(target.groupId)}.`);
    requireNotArchived(group);
    return { group, created: false };
  }
  const draft = checkGroupDraft({ name: target.groupName, summary: "" });
  const named = (await tx.groups.listAll()).filter((group) => group.name === draft.name);
  const [only, ...others] = named;
  if (others.length > 0)
    throw new ConflictError(
      "IMPORT_GROUP_NAME_AMBIGUOUS",
      `${named.length} groups are named "${draft.name.slice(0, 60)}": give the group's id (--group) instead.`,
    );
  if (only) {
    requireNotArchived(only);
    return { group: only, created: false };
  }
  return { group: await insertGroup(tx, draft, undefined, at), created: true };
}

function counts(given: Partial<ImportCounts>): ImportCounts {
  return {
    topics: 0,
    comments: 0,
    tasks: 0,
    events: 0,
    accounts: 0,
    members: 0,
    chatRooms: 0,
    chatMessages: 0,
    ...given,
  };
}
