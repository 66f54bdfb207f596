import type { FastifyRequest } from "fastify";
import type { Authenticate } from "./auth/authenticate.js";
import type { BlobStore } from "./blobs/blob-store.js";
import type { Clock } from "./clock.js";
import type { Config } from "./config/config.js";
import type { Admission } from "./http/admission.js";
import type { TokenLimit } from "./http/rate-limit.js";
import type { Store } from "./store/store.js";

/**
 * What every handler, of the API and of the web pages, is given: configuration, store, blobs,
 * clock, the authenticator and the site URL.
 */
export interface Context {
  readonly config: Config;
  readonly store: Store;
  /** Attachment and file bytes. */
  readonly blobs: BlobStore;
  readonly clock: Clock;
  readonly authenticate: Authenticate;
  /** `{base_url}`: the configured public URL, or the listening address once known. */
  readonly baseUrl: () => string;
  /** Counts an authenticated request against its token's rate limit. */
  readonly limitToken: TokenLimit;
  /** Shutdown state and upload slots. */
  readonly admission: Admission;
  /** The client's address (through trusted proxies), for rate limits and sign-in throttling. */
  readonly clientAddress: (request: FastifyRequest) => string;
}
