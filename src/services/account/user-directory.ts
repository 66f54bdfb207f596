// The accounts as the administration reads them: a page of the list, searched, and one account.
import type { DirectoryUser } from "../../store/queries/users.js";
import type { ServiceContext } from "../context.js";
import { type Administrator, requireAdministrator, requireUserRef } from "./site-admin.js";

/** Accounts on one page of the administration's list. */
export const DIRECTORY_PAGE_SIZE = 50;

/** One page of the directory and whether another follows. */
export interface DirectoryPage {
  readonly users: readonly DirectoryUser[];
  /** The `after` of the next page; undefined on the last. */
  readonly nextAfter: number | undefined;
}

/**
 * The accounts after id `afterId` whose name, reading or address contains `text`, in id order.
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export async function listUserDirectory(
  ctx: ServiceContext,
  by: Administrator,
  query: { readonly text: string; readonly afterId: number },
): Promise<DirectoryPage> {
  return ctx.store.read(async (tx) => {
    await requireAdministrator(tx, by);
    const rows = await tx.users.directory({ ...query, limit: DIRECTORY_PAGE_SIZE + 1 });
    const users = rows.slice(0, DIRECTORY_PAGE_SIZE);
    return { users, nextAfter: rows.length > DIRECTORY_PAGE_SIZE ? users.at(-1)?.id : undefined };
  });
}

/**
 * One account with its state.
 * @throws ForbiddenError ADMIN_REQUIRED; NotFoundError USER_NOT_FOUND
 */
export async function readDirectoryUser(
  ctx: ServiceContext,
  by: Administrator,
  userId: number,
): Promise<DirectoryUser> {
  return ctx.store.read(async (tx) => {
    await requireAdministrator(tx, by);
    const user = await requireUserRef(tx, { userId });
    const [row] = await tx.users.directory({ afterId: user.id - 1, limit: 1 });
    return row ?? { ...user, disabled: false, admin: false, createdAt: 0 };
  });
}
