// What a person changes of their own account on the account page: password, name and reading,
// language and time zone, picture; and the picture as an icon for whoever may see it.
import { createHash } from "node:crypto";
import { hashPassword } from "../../auth/password.js";
import { readImageSize, squarePng, withinPixelLimit } from "../../blobs/image.js";
import type { Actor } from "../../domain/access.js";
import { personActor, userTarget } from "../../domain/audit.js";
import { NotFoundError, TooLargeError, ValidationError } from "../../domain/errors.js";
import { sniffImageType } from "../../domain/file.js";
import { LIMITS } from "../../domain/limits.js";
import {
  type Preferences,
  type User,
  type UserNames,
  checkNewPassword,
  checkUserNames,
  parseLanguage,
  parseTimeZone,
} from "../../domain/user.js";
import { recordAudit } from "../audit/audit-log.js";
import { auditRefusals } from "../audit/refusal.js";
import type { ServiceContext, SignInContext } from "../context.js";
import { signInThrottled } from "../session/sign-in.js";

/** The account page: the person as stored now, their choices, and their picture's ETag if they have one. */
export interface AccountView {
  readonly user: User;
  readonly preferences: Preferences;
  readonly pictureEtag: string | undefined;
}

/** A picture as it is served: bytes, type, and an ETag (quoted, as the header carries it). */
export interface Icon {
  readonly bytes: Uint8Array;
  readonly mediaType: string;
  readonly etag: string;
}

/** The signed-in person's account. @throws NotFoundError USER_NOT_FOUND (an account removed meanwhile) */
export async function readAccount(ctx: ServiceContext, actor: Actor): Promise<AccountView> {
  return ctx.store.read(async (tx) => {
    const user = await tx.users.findById(actor.user.id);
    if (!user) throw new NotFoundError("USER_NOT_FOUND", "This account does not exist any more.");
    const preferences = (await tx.users.findPreferences(user.id)) ?? { lang: null, timeZone: null };
    const picture = await tx.userPictures.find(user.id);
    return { user, preferences, pictureEtag: picture && quoted(picture.etag) };
  });
}

/**
 * Sets a new password after checking the current one (counted by the sign-in throttle, so a
 * borrowed session cannot guess it), and ends every other session of the person: whoever
 * holds one signs in again with the new password. The session that changed it stays; tokens
 * issued to applications stay too (they are revoked on their own).
 * @throws ValidationError CURRENT_PASSWORD_WRONG, and those of checkNewPassword; TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function changePassword(
  ctx: SignInContext,
  actor: Actor,
  input: {
    current: string;
    next: string;
    repeated: string;
    address: string;
    device?: string | undefined;
    keepSessionId: number;
  },
): Promise<{ sessionsEnded: number }> {
  const who = personActor(actor.user, input.address);
  const entry = { action: "password.change", actor: who, target: userTarget(actor.user) } as const;
  checkNewPassword(input.next, input.repeated);
  return auditRefusals(ctx, entry, async () => {
    const attempt = {
      email: actor.user.email,
      password: input.current,
      address: input.address,
      device: input.device,
      via: "password-check" as const,
    };
    if (!(await signInThrottled(ctx, attempt)))
      throw new ValidationError("CURRENT_PASSWORD_WRONG", "The current password is wrong.");
    const passwordHash = await hashPassword(input.next);
    return ctx.store.transaction(async (tx) => {
      await tx.users.update(actor.user.id, { passwordHash });
      const sessionsEnded = await tx.sessions.removeOthersOfUser(actor.user.id, input.keepSessionId);
      await recordAudit(tx, ctx.clock, { ...entry, details: { sessionsEnded } });
      return { sessionsEnded };
    });
  });
}

/**
 * Sets the person's name and its reading (every page and feed shows the new name at once).
 * @throws ValidationError USER_NAME_REQUIRED, USER_NAME_TOO_LONG, USER_READING_TOO_LONG, USER_NAME_INVALID
 */
export async function updateNames(ctx: ServiceContext, actor: Actor, names: UserNames): Promise<void> {
  checkUserNames(names);
  await ctx.store.transaction((tx) => tx.users.update(actor.user.id, names).then(() => undefined));
}

/**
 * Sets the language and time zone of the person's pages; "" leaves each to the browser or the server.
 * @throws ValidationError LANGUAGE_INVALID, TIME_ZONE_INVALID
 */
export async function setPreferences(
  ctx: ServiceContext,
  actor: Actor,
  input: { lang: string; timeZone: string },
): Promise<Preferences> {
  const preferences = { lang: parseLanguage(input.lang), timeZone: parseTimeZone(input.timeZone) };
  await ctx.store.transaction((tx) => tx.users.update(actor.user.id, preferences).then(() => undefined));
  return preferences;
}

/**
 * Makes an uploaded image the person's picture: a PNG or JPEG, GIF or WebP (by its bytes, not
 * its name), within the byte and pixel limits, cut to a square and stored as a PNG.
 * @throws ValidationError PICTURE_REQUIRED, PICTURE_NOT_IMAGE, PICTURE_TOO_MANY_PIXELS; TooLargeError PICTURE_TOO_LARGE
 */
export async function setPicture(ctx: ServiceContext, actor: Actor, bytes: Uint8Array): Promise<void> {
  if (bytes.length === 0) throw new ValidationError("PICTURE_REQUIRED", "Choose a picture to upload.");
  if (bytes.length > LIMITS.pictureMaxBytes)
    throw new TooLargeError("PICTURE_TOO_LARGE", `The picture is larger than ${LIMITS.pictureMaxBytes} bytes.`);
  const notImage = () =>
    new ValidationError("PICTURE_NOT_IMAGE", "The picture must be a PNG, JPEG, GIF or WebP image.");
  // Only these decoders ever see the bytes: an SVG or a PDF is refused before sharp reads it.
  if (!sniffImageType(bytes.subarray(0, 16))) throw notImage();
  const size = await readImageSize(bytes);
  if (!size) throw notImage();
  if (!withinPixelLimit(size.width, size.height))
    throw new ValidationError(
      "PICTURE_TOO_MANY_PIXELS",
      `The picture has more than ${LIMITS.imageMaxPixels} pixels (${size.width} × ${size.height}).`,
    );
  const png = await squarePng(bytes, LIMITS.pictureSidePx);
  if (!png) throw notImage();
  const etag = createHash("sha256").update(png).digest("base64url").slice(0, 22);
  const picture = { mediaType: "image/png", bytes: png, etag, updatedAt: ctx.clock.now() };
  await ctx.store.transaction((tx) => tx.userPictures.put(actor.user.id, picture));
}

/** Removes the person's picture (their initials are shown again); nothing happens without one. */
export async function removePicture(ctx: ServiceContext, actor: Actor): Promise<void> {
  await ctx.store.transaction((tx) => tx.userPictures.remove(actor.user.id).then(() => undefined));
}

/**
 * A person's picture for a caller who shares a group with them (or is them); undefined when
 * they have none (a client then shows something of its own). Anyone else learns nothing.
 * @throws NotFoundError USER_NOT_FOUND
 */
export async function userIcon(ctx: ServiceContext, actor: Actor, userId: number): Promise<Icon | undefined> {
  return ctx.store.read(async (tx) => {
    if (!(await tx.userPictures.shareGroup(actor.user.id, userId)))
      throw new NotFoundError("USER_NOT_FOUND", "No such person shares a group with you.");
    const picture = await tx.userPictures.find(userId);
    return picture && { bytes: picture.bytes, mediaType: picture.mediaType, etag: quoted(picture.etag) };
  });
}

function quoted(etag: string): string {
  return `"${etag}"`;
}
