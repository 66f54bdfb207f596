// oidc-provider 8 ships no types; this is the part of its API the tests use (lib/provider.js).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface GrantConstructor {
    new (init: { clientId: string; accountId: string }): Grant;
  }
  interface OidcContext {
    readonly oidc: {
      readonly provider: { readonly Grant: GrantConstructor };
      readonly client?: { readonly clientId: string };
      readonly session?: { readonly accountId?: string };
    };
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients: ReadonlyArray<Record<string, unknown>>;
    pkce?: { methods?: string[]; required?: () => boolean };
    findAccount?: (ctx: unknown, id: string) => Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    loadExistingGrant?: (ctx: OidcContext) => Promise<Grant | undefined>;
    features?: Record<string, { enabled: boolean }>;
    cookies?: { keys: string[] };
    ttl?: Record<string, number>;
    renderError?: (ctx: unknown, out: unknown, error: unknown) => Promise<void>;
  }

  class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
  // eslint-disable-next-line no-restricted-syntax -- the package's own default export
  export default Provider;
}
