import { formatPair, parsePair } from "../domain/item-id.js";
import type { Member } from "../domain/member.js";
import {
  addMember,
  inviteMember,
  listInvitations,
  removeMember,
  setManager,
  setNotify,
} from "../services/member/member-admin.js";
import { inviteAndSendAsOperator, resendAsOperator } from "../services/member/invitation-admin.js";
import { invitePlaceholderAsOperator } from "../services/member/placeholder-claim.js";
import { commandMailContext } from "./mail-context.js";
import {
  type CommandGroup,
  type Subcommand,
  booleanOption,
  commandGroup,
  groupOption,
  optional,
  required,
} from "./admin.js";
import { UsageError } from "./options.js";

function shown(action: string, member: Member) {
  return {
    [action]: "member",
    id: formatPair(member.id),
    group: formatPair(member.groupId),
    status: member.status,
    name: member.name,
    manager: member.manager,
    notify: member.notify,
  };
}

/** A mailed invitation: the member, its end and when its message was queued. */
function sent(action: string, member: Member) {
  return { ...shown(action, member), expires: isoOrNull(member.inviteExpiresAt), sent: isoOrNull(member.inviteSentAt) };
}

/** `--expires`: a UTC date-time, or null when not given. */
function expiresOption(values: Parameters<typeof optional>[0]): number | null {
  const expires = optional(values, "expires");
  const expiresAt = expires === undefined ? null : Date.parse(expires);
  if (expiresAt !== null && (Number.isNaN(expiresAt) || !/Z$/.test(expires ?? "")))
    throw new UsageError("--expires must be a UTC date-time such as 2027-01-01T00:00:00Z");
  return expiresAt;
}

function isoOrNull(at: number | null): string | null {
  return at === null ? null : new Date(at).toISOString();
}

const GROUP_USER = { group: { type: "string" }, user: { type: "string" } } as const;

/** `kairan member add|invite|invite-placeholder|resend|invitations|remove|set-manager|set-notify`. */
export const MEMBER_COMMAND: CommandGroup = commandGroup("member", "manage the members and invitations of a group", {
  add: {
    summary: "add a user (by e-mail) to a group",
    usage: "--group ID --user EMAIL [--manager]",
    options: { ...GROUP_USER, manager: { type: "boolean" } },
    async run(values, _p, context) {
      return shown(
        "added",
        await addMember(context, {
          groupId: groupOption(values),
          email: required(values, "user"),
          manager: values.manager === true,
        }),
      );
    },
  },
  invite: {
    summary: "invite an e-mail address to a group; with --send, mail it a join link (14 days unless --expires)",
    uses: "links",
    usage: "--group ID --email EMAIL --label TEXT [--expires 2027-01-01T00:00:00Z] [--send]",
    options: {
      group: { type: "string" },
      email: { type: "string" },
      label: { type: "string" },
      expires: { type: "string" },
      send: { type: "boolean" },
    },
    async run(values, _p, context, io) {
      const input = {
        groupId: groupOption(values),
        email: required(values, "email"),
        label: required(values, "label"),
        expiresAt: expiresOption(values),
      };
      if (values.send !== true) return shown("invited", await inviteMember(context, input));
      return sent("invited", await inviteAndSendAsOperator(commandMailContext(values, context, io), input));
    },
  },
  "invite-placeholder": {
    summary:
      "mail the person of an imported placeholder member a link to take it over (their name and password), 14 days unless --expires",
    uses: "links",
    usage: "--group ID --user PLACEHOLDER_EMAIL --email THEIR_EMAIL [--expires 2027-01-01T00:00:00Z]",
    options: { ...GROUP_USER, email: { type: "string" }, expires: { type: "string" } },
    async run(values, _p, context, io) {
      const input = {
        groupId: groupOption(values),
        placeholderEmail: required(values, "user"),
        email: required(values, "email"),
        expiresAt: expiresOption(values),
      };
      const issued = await invitePlaceholderAsOperator(commandMailContext(values, context, io), input);
      return {
        invited: "placeholder",
        id: formatPair(issued.memberId),
        group: formatPair(issued.group.id),
        email: issued.email,
        expires: isoOrNull(issued.expiresAt),
      };
    },
  },
  resend: {
    summary: "mail an invitation again: a new join link (the old one stops working) for 14 more days",
    uses: "links",
    usage: "--group ID --member ID",
    options: { group: { type: "string" }, member: { type: "string" } },
    async run(values, _p, context, io) {
      const memberText = required(values, "member");
      const memberId = parsePair(memberText);
      if (memberId === undefined) throw new UsageError("--member must be a member id such as 1:5");
      const input = { groupId: groupOption(values), memberId };
      return sent("resent", await resendAsOperator(commandMailContext(values, context, io), input));
    },
  },
  invitations: {
    summary: "list a group's invitations: address, end, whether a link was made, when it was last mailed",
    usage: "--group ID",
    options: { group: { type: "string" } },
    async run(values, _p, context) {
      return (await listInvitations(context, { groupId: groupOption(values) })).map((invitation) => ({
        invitation: formatPair(invitation.memberId),
        group: formatPair(invitation.groupId),
        email: invitation.email,
        expires: isoOrNull(invitation.expiresAt),
        // Only the link's hash is kept: the link itself went out once, by mail or to the manager who made it.
        link: invitation.tokenHash !== null,
        sent: isoOrNull(invitation.sentAt),
      }));
    },
  },
  remove: {
    summary: "remove a member (--user EMAIL) or an invitation (--member ID); never the last manager",
    usage: "--group ID (--user EMAIL | --member ID)",
    options: { ...GROUP_USER, member: { type: "string" } },
    async run(values, _p, context) {
      const email = optional(values, "user");
      const memberText = optional(values, "member");
      if ((email === undefined) === (memberText === undefined))
        throw new UsageError("give exactly one of --user and --member");
      const memberId = memberText === undefined ? undefined : parsePair(memberText);
      if (memberText !== undefined && memberId === undefined)
        throw new UsageError("--member must be a member id such as 1:5");
      return shown("removed", await removeMember(context, { groupId: groupOption(values), email, memberId }));
    },
  },
  "set-manager": memberFlag("make a member a manager (--value true) or not (--value false)", setManager),
  "set-notify": memberFlag("turn a member's notifications for the group on or off", setNotify),
});

/** `set-manager` and `set-notify`: one yes-or-no setting of one member, from `--value true|false`. */
function memberFlag(summary: string, set: typeof setManager): Subcommand {
  return {
    summary,
    usage: "--group ID --user EMAIL --value true|false",
    options: { ...GROUP_USER, value: { type: "string" } },
    async run(values, _p, context) {
      const input = {
        groupId: groupOption(values),
        email: required(values, "user"),
        value: booleanOption(values, "value"),
      };
      return shown("updated", await set(context, input));
    },
  };
}
