import type { FastifyRequest } from "fastify";
import type { Authenticate } from "./auth/authenticate.js";
import type { Config } from "./config/config.js";
import type { Admission } from "./http/admission.js";
import type { TokenLimit } from "./http/rate-limit.js";
import type { ServiceContext } from "./services/context.js";

/**
 * What every handler, of the API and of the web pages, is given: the services' context (store,
 * blobs, clock), configuration, the authenticator and the site URL. Handlers pass it to services
 * as it is, so nothing is built per request.
 */
export interface Context extends ServiceContext {
  readonly config: Config;
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
