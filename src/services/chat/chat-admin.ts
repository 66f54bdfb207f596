// The operator's chat commands (`kairan chat`): the same rules as the API, acting as a user
// named by e-mail address.
import type { Actor } from "../../domain/access.js";
import { requireUserByEmail } from "../admin-lookup.js";
import type { ServiceContext } from "../context.js";

/**
 * The user with this address as an actor of the operator's tool (full access level).
 * @throws NotFoundError USER_NOT_FOUND
 */
export async function actorByEmail(ctx: ServiceContext, email: string): Promise<Actor> {
  const user = await ctx.store.read((tx) => requireUserByEmail(tx, email));
  return {
    user: { id: user.id, name: user.name, email: user.email },
    app: { id: 0, name: "kairan", consumerKey: "", accessLevel: "Z" },
  };
}

/** The user ids of these addresses (room members). @throws NotFoundError USER_NOT_FOUND */
export async function userIdsByEmail(ctx: ServiceContext, emails: readonly string[]): Promise<number[]> {
  return ctx.store.read(async (tx) => {
    const ids: number[] = [];
    for (const email of emails) ids.push((await requireUserByEmail(tx, email)).id);
    return ids;
  });
}
