// What the audit log records, as plain values: the actions it knows, who did one, to what. The
// one writer is services/audit/audit-log.ts; the admin pages and exports read it.

/**
 * Every action the log knows. A new kind of administrative action or security event is added
 * here first, so a misspelt action is a compile error rather than a row nobody can filter for.
 */
export const AUDIT_ACTIONS = [
  // Signing in and the account's own security.
  "sign-in",
  "sign-in.failed",
  "sign-in.locked",
  "sign-out.everywhere",
  "password.change",
  "password.reset.request",
  "password.reset",
  "address.change",
  "two-factor.enable",
  "two-factor.disable",
  "two-factor.recovery-code",
  "passkey.add",
  "passkey.remove",
  // Accounts, as an administrator manages them.
  "user.create",
  "user.claim",
  "user.invite",
  "user.update",
  "user.disable",
  "user.enable",
  "user.delete",
  "user.admin.grant",
  "user.admin.revoke",
  // Groups and their members.
  "group.create",
  "group.update",
  "group.archive",
  "group.restore",
  "group.delete",
  "group.import",
  "member.add",
  "member.invite",
  "member.remove",
  "member.role",
  // Applications and tokens.
  "application.create",
  "application.update",
  "application.secret.rotate",
  "application.tokens.revoke",
  "application.delete",
  "token.create",
  "token.revoke",
  // The site.
  "settings.change",
  "mail.send-test",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** `done`, or `refused`: the action was tried and not allowed, and nothing else was written. */
export type AuditOutcome = "done" | "refused";

/** Who did it. `label` is kept as written, so the row still names them once the account is gone. */
export interface AuditActor {
  readonly userId?: number;
  readonly label: string;
  /** The client's address (the proxy's X-Forwarded-For when the proxy is trusted). */
  readonly address?: string;
}

/** What it was done to. */
export interface AuditTarget {
  readonly kind: "user" | "group" | "membership" | "application" | "token" | "settings" | "mail";
  readonly id: string;
  readonly label: string;
}

/** One row to write. */
export interface AuditEntry {
  readonly action: AuditAction;
  readonly outcome?: AuditOutcome;
  readonly actor: AuditActor;
  readonly target?: AuditTarget;
  /** The group it concerns (its managers see their group's part of the log). */
  readonly groupId?: number;
  /** Before and after, where that matters, and what else the action names. Never a secret. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Labels are for reading, not storage: longer ones are cut here. */
export const AUDIT_LABEL_MAX = 200;

/** A person as the log names them: "Name <email>". */
export function personLabel(user: { readonly name: string; readonly email: string }): string {
  return cutLabel(`${user.name} <${user.email}>`);
}

/** The actor of a person's own action, from an address. */
export function personActor(
  user: { readonly id: number; readonly name: string; readonly email: string },
  address?: string,
): AuditActor {
  return { userId: user.id, label: personLabel(user), ...(address === undefined ? {} : { address }) };
}

/** The actor of a signed-in person's request: the person, from the address the request came from. */
export function actorOf(actor: {
  readonly user: { readonly id: number; readonly name: string; readonly email: string };
  readonly address?: string;
}): AuditActor {
  return personActor(actor.user, actor.address);
}

/** An account as a target. */
export function userTarget(user: { readonly id: number; readonly name: string; readonly email: string }): AuditTarget {
  return { kind: "user", id: String(user.id), label: personLabel(user) };
}

/** A group as a target. */
export function groupTarget(group: { readonly id: number; readonly name: string }): AuditTarget {
  return { kind: "group", id: String(group.id), label: cutLabel(group.name) };
}

/** A member or an invitation of a group as a target: its member id, and its name or label. */
export function membershipTarget(member: { readonly id: number; readonly name: string }): AuditTarget {
  return { kind: "membership", id: String(member.id), label: cutLabel(member.name) };
}

/** The operator at the command line (no account, no address). */
export const COMMAND_LINE_ACTOR: AuditActor = Object.freeze({ label: "kairan (command line)" });

/** The server itself (retention, expiry). */
export const SYSTEM_ACTOR: AuditActor = Object.freeze({ label: "system" });

/** `label` cut to AUDIT_LABEL_MAX characters (by code point, never half a pair), marked with "…". */
export function cutLabel(label: string): string {
  const chars = [...label];
  return chars.length <= AUDIT_LABEL_MAX ? label : `${chars.slice(0, AUDIT_LABEL_MAX - 1).join("")}…`;
}

/** Whether `value` names a known action (filters read from a query string). */
export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}
