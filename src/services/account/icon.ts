import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import { generatedIcon } from "../../blobs/generated-icon.js";
import { type Icon, userIcon } from "./account.js";
import type { ServiceContext } from "../context.js";

/** Whose picture `GET /api/icon/V2` asks for. */
export type IconSubject =
  { readonly kind: "user"; readonly userId: number } | { readonly kind: "group"; readonly groupId: number };

/**
 * A person's uploaded picture, else one generated from their initials; a group's generated one.
 * Only for a caller who shares a group with the person (or is them), or who has joined the group:
 * anyone else gets the same 404 as for an id that does not exist.
 * @throws NotFoundError USER_NOT_FOUND, GROUP_NOT_FOUND
 */
export async function iconOf(ctx: ServiceContext, actor: Actor, subject: IconSubject): Promise<Icon> {
  if (subject.kind === "user") {
    const uploaded = await userIcon(ctx, actor, subject.userId);
    if (uploaded) return uploaded;
    const user = await ctx.store.read((tx) => tx.users.findById(subject.userId));
    if (!user) throw new NotFoundError("USER_NOT_FOUND", "No such person shares a group with you.");
    return generated(await generatedIcon("user", user.id, user.name));
  }
  const group = await ctx.store.read(async (tx) => {
    const joined = await tx.memberships.findJoined(subject.groupId, actor.user.id);
    return joined && tx.groups.findById(subject.groupId);
  });
  if (!group) throw new NotFoundError("GROUP_NOT_FOUND", "No such group among yours.");
  return generated(await generatedIcon("group", group.id, group.name));
}

function generated(icon: { bytes: Buffer; etag: string }): Icon {
  return { bytes: icon.bytes, mediaType: "image/png", etag: icon.etag };
}
