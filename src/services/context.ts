// What every use case runs against. The HTTP and web contexts extend it and the CLI's is exactly
// it, so callers hand over the long-lived object they already hold: nothing is built per request.
import type { BlobStore } from "../blobs/blob-store.js";
import type { Clock } from "../clock.js";
import type { LoginThrottleConfig } from "../config/limits.js";
import type { Store } from "../store/store.js";

/** The store, the blob store and the clock: the first argument of every service function. */
export interface ServiceContext {
  readonly store: Store;
  /** Attachment and file bytes. */
  readonly blobs: BlobStore;
  readonly clock: Clock;
}

/** The services that check a password also count failures against the configured limits. */
export interface SignInContext extends ServiceContext {
  readonly config: { readonly limits: { readonly loginThrottle: LoginThrottleConfig } };
}
