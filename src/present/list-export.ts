// The downloads of a group's lists (docs/api.md "Downloads of a group's lists"): its tasks and its
// members as CSV for a spreadsheet, with a byte order mark so that Excel reads UTF-8 (Japanese
// names) as such, times as the reader's wall clock ("YYYY-MM-DD HH:MM") in the page's zone.
import { formatContentId } from "../domain/item-id.js";
import type { Task } from "../domain/task.js";
import { utcToWallClock } from "../domain/time-zone.js";
import type { ExportedMember } from "../services/member/member-export.js";
import { csvText } from "./csv.js";
import { contentLinks } from "../domain/item-links.js";

/** The task download's columns, in their order. */
export const TASK_COLUMNS = [
  "id",
  "title",
  "status",
  "priority",
  "assignee",
  "due",
  "created",
  "creator",
  "folder",
  "url",
] as const;

/** The member download's columns, in their order. */
export const MEMBER_COLUMNS = ["name", "reading", "email", "role", "joined"] as const;

/** `YYYY-MM-DD HH:MM` of the zone's wall clock: what a spreadsheet reads as a date and time. */
export function wallClockText(utcMs: number, zone: string): string {
  return new Date(utcToWallClock(utcMs, zone)).toISOString().slice(0, 16).replace("T", " ");
}

/** The tasks as CSV; an all-day due date is its day (`YYYY-MM-DD`), a due time the reader's. */
export function taskCsv(tasks: readonly Task[], options: { readonly baseUrl: string; readonly zone: string }): string {
  return csvText(
    TASK_COLUMNS,
    tasks.map((task) => {
      const ref = { kind: "TASK", groupId: task.groupId, id: task.id } as const;
      const due =
        task.dueAt === null
          ? null
          : task.allDay
            ? new Date(task.dueAt).toISOString().slice(0, 10)
            : wallClockText(task.dueAt, options.zone);
      return [
        formatContentId(ref),
        task.title,
        task.status,
        task.priority,
        task.assigneeName,
        due,
        wallClockText(task.createdAt, options.zone),
        task.authorName,
        task.folderName,
        contentLinks(options.baseUrl, ref).alternate,
      ];
    }),
    { bom: true },
  );
}

/** The joined members as CSV; the reading is family then given name, as the member list shows it. */
export function memberCsv(members: readonly ExportedMember[], options: { readonly zone: string }): string {
  return csvText(
    MEMBER_COLUMNS,
    members.map((member) => [
      member.name,
      [member.familyKana, member.givenKana].filter((part) => part !== "").join(" "),
      member.email,
      member.manager ? "manager" : "member",
      wallClockText(member.joinedAt, options.zone),
    ]),
    { bom: true },
  );
}

/**
 * A download's file name: the group's name and what the file holds (`Team-tasks.csv`), without the
 * characters file systems refuse or that would make a path; the header encodes the rest (RFC 6266).
 */
export function listFileName(groupName: string, list: "tasks" | "members"): string {
  const safe = groupName
    .replace(/[\\/:*?"<>|\p{Cc}\p{Cf}]/gu, "_")
    .replace(/^[\s.]+|[\s.]+$/g, "")
    .slice(0, 100);
  return `${safe === "" ? "group" : safe}-${list}.csv`;
}
