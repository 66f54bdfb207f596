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

const GROUP_USER = { group: { type: "string" }, user: { type: "string" } } as const;

/** `kairan member add|invite|invitations|remove|set-manager|set-notify`. */
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
    summary: "invite an e-mail address to a group",
    usage: "--group ID --email EMAIL --label TEXT [--expires 2027-01-01T00:00:00Z]",
    options: {
      group: { type: "string" },
      email: { type: "string" },
      label: { type: "string" },
      expires: { type: "string" },
    },
    async run(values, _p, context) {
      const expires = optional(values, "expires");
      const expiresAt = expires === undefined ? null : Date.parse(expires);
      if (expiresAt !== null && (Number.isNaN(expiresAt) || !/Z$/.test(expires ?? "")))
        throw new UsageError("--expires must be a UTC date-time such as 2027-01-01T00:00:00Z");
      const input = {
        groupId: groupOption(values),
        email: required(values, "email"),
        label: required(values, "label"),
        expiresAt,
      };
      return shown("invited", await inviteMember(context, input));
    },
  },
  invitations: {
    summary: "list a group's invitations: address, end, and whether a manager was shown a link",
    usage: "--group ID",
    options: { group: { type: "string" } },
    async run(values, _p, context) {
      return (await listInvitations(context, { groupId: groupOption(values) })).map((invitation) => ({
        invitation: formatPair(invitation.memberId),
        group: formatPair(invitation.groupId),
        email: invitation.email,
        expires: invitation.expiresAt === null ? null : new Date(invitation.expiresAt).toISOString(),
        // Only the link's hash is kept: the link itself was shown once, to the manager who made it.
        link: invitation.tokenHash !== null,
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
