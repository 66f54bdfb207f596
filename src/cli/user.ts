import { randomBytes } from "node:crypto";
import { formatPair } from "../domain/item-id.js";
import { createGroupAsOperator, createUserAsOperator, listGroups, listUsers } from "../services/account/user-admin.js";
import { type CommandGroup, commandGroup, optional, required } from "./admin.js";
import { GROUP_ADMIN_SUBCOMMANDS } from "./group-admin.js";
import { ACCOUNT_SUBCOMMANDS } from "./user-account.js";

/** `kairan user add|list|set-password|rename|disable|enable|reset-password|require-two-factor|remove-two-factor|unlock|admin`. */
export const USER_COMMAND: CommandGroup = commandGroup("user", "add, list and manage user accounts", {
  add: {
    summary: "register a user; without --password one is generated and printed",
    usage: "--name NAME --email ADDRESS [--password PW] [--family-kana K] [--given-kana K] [--admin]",
    options: {
      admin: { type: "boolean" },
      name: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      "family-kana": { type: "string" },
      "given-kana": { type: "string" },
    },
    async run(values, _positionals, context) {
      const generated = optional(values, "password") === undefined ? randomBytes(12).toString("base64url") : undefined;
      const user = await createUserAsOperator(context, {
        name: required(values, "name"),
        email: required(values, "email"),
        password: generated ?? required(values, "password"),
        familyKana: optional(values, "family-kana") ?? "",
        givenKana: optional(values, "given-kana") ?? "",
        admin: values.admin === true,
      });
      return {
        added: "user",
        id: formatPair(user.id),
        name: user.name,
        email: user.email,
        ...(values.admin === true ? { admin: true } : {}),
        ...(generated ? { password: generated } : {}),
      };
    },
  },
  list: {
    summary: "list every user",
    usage: "",
    options: {},
    async run(_values, _positionals, context) {
      return (await listUsers(context)).map((user) => ({
        id: formatPair(user.id),
        name: user.name,
        email: user.email,
        ...(user.disabled ? { disabled: true } : {}),
        // A site administrator (the first run's account, `--admin`, or granted in /admin).
        ...(user.admin ? { admin: true } : {}),
      }));
    },
  },
  ...ACCOUNT_SUBCOMMANDS,
});

/** `kairan group add|list|archive|restore|delete`. */
export const GROUP_COMMAND: CommandGroup = commandGroup("group", "add, list, archive and delete groups", {
  add: {
    summary: "create a group, optionally with its first manager",
    usage: "--name NAME [--summary TEXT] [--manager EMAIL]",
    options: { name: { type: "string" }, summary: { type: "string" }, manager: { type: "string" } },
    async run(values, _positionals, context) {
      const input = {
        name: required(values, "name"),
        summary: optional(values, "summary") ?? "",
        managerEmail: optional(values, "manager"),
      };
      const group = await createGroupAsOperator(context, input);
      return { added: "group", id: formatPair(group.id), name: group.name };
    },
  },
  list: {
    summary: "list every group",
    usage: "",
    options: {},
    async run(_values, _positionals, context) {
      return (await listGroups(context)).map((group) => ({
        id: formatPair(group.id),
        name: group.name,
        summary: group.summary,
        ...(group.archivedAt === null ? {} : { archived: true }),
      }));
    },
  },
  ...GROUP_ADMIN_SUBCOMMANDS,
});
