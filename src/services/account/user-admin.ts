import { hashPassword } from "../../auth/password.js";
import { COMMAND_LINE_ACTOR, groupTarget, userTarget } from "../../domain/audit.js";
import { ValidationError } from "../../domain/errors.js";
import type { Group } from "../../domain/group.js";
import { checkNameCharacters } from "../../domain/text.js";
import { type User, checkUserNames } from "../../domain/user.js";
import { requireUserByEmail } from "../admin-lookup.js";
import type { ServiceContext } from "../context.js";
import { recordAudit } from "../audit/audit-log.js";
import { insertGroup } from "../group/group-manage.js";
import { insertAccount } from "./account-write.js";
import { type Administrator, OPERATOR, refusalLogged } from "./site-admin.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Registers a user who signs in with e-mail address and password; with `admin`, a site
 * administrator. Writes its audit row (`by`: the operator unless an administrator acts).
 * @throws ValidationError USER_NAME_REQUIRED, USER_NAME_TOO_LONG, USER_READING_TOO_LONG, USER_NAME_INVALID,
 *   INVALID_EMAIL, PASSWORD_REQUIRED, EMAIL_TAKEN; ForbiddenError ADMIN_REQUIRED
 */
export async function createUserAsOperator(
  ctx: ServiceContext,
  input: {
    name: string;
    email: string;
    password: string;
    familyKana: string;
    givenKana: string;
    admin?: boolean;
  },
  by: Administrator = OPERATOR,
): Promise<User> {
  checkUserNames(input);
  if (!EMAIL.test(input.email))
    throw new ValidationError("INVALID_EMAIL", `"${input.email.slice(0, 40)}" is not an e-mail address.`);
  if (input.password === "") throw new ValidationError("PASSWORD_REQUIRED", "The password is empty.");
  const passwordHash = await hashPassword(input.password);
  return refusalLogged(ctx, by, "user.create", async (tx) => {
    const { name, email, familyKana, givenKana } = input;
    const user = await insertAccount(tx, { name, email, familyKana, givenKana, passwordHash }, ctx.clock.now());
    if (input.admin === true) await tx.users.update(user.id, { siteAdmin: true });
    await recordAudit(tx, ctx.clock, {
      action: "user.create",
      actor: by.audit,
      target: userTarget(user),
      details: { admin: input.admin === true },
    });
    return user;
  });
}

/** Every user, oldest first, and whether an operator disabled the account. */
export async function listUsers(ctx: ServiceContext): Promise<Array<User & { disabled: boolean; admin: boolean }>> {
  return ctx.store.read(async (tx) => {
    const disabled = new Set(await tx.users.listDisabledIds());
    const admins = new Set(await tx.users.listAdminIds());
    return (await tx.users.list()).map((user) => ({
      ...user,
      disabled: disabled.has(user.id),
      admin: admins.has(user.id),
    }));
  });
}

/**
 * Creates a group; with `managerEmail`, that user joins it as its first manager.
 * @throws ValidationError GROUP_NAME_REQUIRED, GROUP_NAME_INVALID; NotFoundError USER_NOT_FOUND
 */
export async function createGroupAsOperator(
  ctx: ServiceContext,
  input: { name: string; summary: string; managerEmail: string | undefined },
): Promise<Group> {
  if (input.name.trim() === "")
    throw new ValidationError("GROUP_NAME_REQUIRED", "The group's name is missing or empty.");
  checkNameCharacters(input.name, "GROUP_NAME_INVALID", "The group's name");
  return ctx.store.transaction(async (tx) => {
    const manager = input.managerEmail === undefined ? undefined : await requireUserByEmail(tx, input.managerEmail);
    const group = await insertGroup(tx, input, manager?.id, ctx.clock.now());
    await recordAudit(tx, ctx.clock, {
      action: "group.create",
      actor: COMMAND_LINE_ACTOR,
      target: groupTarget(group),
      groupId: group.id,
      details: { name: group.name, summary: group.summary, manager: manager?.email ?? null },
    });
    return group;
  });
}

/** Every group, oldest first. */
export async function listGroups(ctx: ServiceContext): Promise<Group[]> {
  return ctx.store.read((tx) => tx.groups.listAll());
}
