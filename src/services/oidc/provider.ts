// The OpenID provider as openid-client reaches it: discovered afresh at each step (a short timeout;
// a provider that is down or misconfigured makes single sign-on "unavailable", never an error page),
// the client authenticated with its secret. Only this file speaks to the provider.
import * as client from "openid-client";
import type { SiteSettings } from "../../domain/site-settings.js";
import { UnavailableError } from "../../domain/errors.js";

/** Seconds each request to the provider may take. */
const PROVIDER_TIMEOUT_S = 5;

/** The error of a provider that cannot be reached or answers nonsense; the password still works. */
export class OidcUnavailableError extends UnavailableError {
  constructor(readonly reason: string) {
    super("OIDC_UNAVAILABLE", "Single sign-on is unavailable at the moment; sign in with your password.", 60);
  }
}

/**
 * The provider's configuration from its discovery document.
 * @throws OidcUnavailableError
 */
export async function discoverProvider(
  settings: Pick<SiteSettings, "oidcIssuer" | "oidcClientId">,
  secret: string,
): Promise<client.Configuration> {
  const issuer = new URL(settings.oidcIssuer);
  // http is accepted for this machine's own addresses only (domain/site-settings.ts checkIssuer).
  const insecure = issuer.protocol === "http:";
  try {
    return await client.discovery(
      issuer,
      settings.oidcClientId,
      undefined,
      client.ClientSecretBasic(secret),
      insecure
        ? { timeout: PROVIDER_TIMEOUT_S, execute: [client.allowInsecureRequests] }
        : { timeout: PROVIDER_TIMEOUT_S },
    );
  } catch (error) {
    throw new OidcUnavailableError(`discovery failed: ${describe(error)}`);
  }
}

/** Whether an error of openid-client is the network's (or a timeout), not the provider's answer. */
export function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "TimeoutError" || error.name === "AbortError") return true;
  if (error instanceof TypeError && /fetch failed/.test(error.message)) return true;
  return error.cause !== undefined && isNetworkError(error.cause);
}

/** A short, secret-free description of a failure, for the log. */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return "unknown error";
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? ` (${error.cause.message.slice(0, 120)})` : "";
  return `${typeof code === "string" ? `${code}: ` : ""}${error.message.slice(0, 200)}${cause}`;
}
