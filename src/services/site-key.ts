// The site's signing keys: made at random on first use, kept in the database so that every process
// of a deployment signs and verifies alike, and kept in memory after (a key never changes).
import { randomBytes } from "node:crypto";
import type { Tx } from "../store/store.js";
import type { ServiceContext } from "./context.js";

/** What each key signs; one key per purpose, so one leaked purpose's tokens forge no other's. */
export type SiteKeyName =
  | "mail-reply"
  | "mail-unsubscribe"
  | "totp-secret"
  | "second-factor"
  | "oidc-secret"
  | "passkey"
  | "smtp-url"
  | "webhook-secret"
  | "websub-secret";

const known = new WeakMap<ServiceContext["store"], Map<SiteKeyName, Promise<Buffer>>>();

/**
 * The key named `name` of this site (32 random bytes). Inside a transaction pass its `tx` (a new
 * transaction there would be a nested one); a key read through `tx` is not remembered, since that
 * transaction may still roll its creation back.
 */
export async function siteKey(
  ctx: Pick<ServiceContext, "store" | "clock">,
  name: SiteKeyName,
  tx?: Tx,
): Promise<Buffer> {
  let keys = known.get(ctx.store);
  if (keys === undefined) known.set(ctx.store, (keys = new Map()));
  const remembered = keys.get(name);
  if (remembered !== undefined) return remembered;
  const fresh = () => randomBytes(32).toString("base64url");
  if (tx !== undefined) return Buffer.from(await tx.siteKeys.getOrCreate(name, fresh(), ctx.clock.now()), "base64url");
  const key = ctx.store
    .transaction((inner) => inner.siteKeys.getOrCreate(name, fresh(), ctx.clock.now()))
    .then((secret) => Buffer.from(secret, "base64url"));
  keys.set(name, key);
  // A failed read (the database down) is not remembered: the next call asks again.
  const forget = keys;
  key.catch(() => forget.delete(name));
  return key;
}
