// A change as notification mail tells it (migration 0034's log, services/mail-notify).

/** What a logged change names: an item of a group, a group's member list, or a chat room. */
export type MailItemKind = "BOARD" | "TASK" | "CABINET" | "GW_SCHEDULE" | "GROUP" | "CHAT";

/**
 * How an item changed: for its readers `created`, `updated`, `edited` (the text changed),
 * `comment`, `joined`, `left`; for one person `mention`, `assigned` (a task to them), `chat`
 * (a direct message).
 */
export type MailEvent =
  | "created"
  | "updated"
  | "edited"
  | "comment"
  | "joined"
  | "left"
  | "mention"
  | "assigned"
  | "chat"
  | "completed"
  | "reopened"
  | "version"
  | "reminder";
