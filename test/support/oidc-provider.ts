// A real OpenID provider in the test process (oidc-provider 8, certified), on 127.0.0.1: its
// development login form accepts any of the accounts given, PKCE is required, consent is taken as
// given (a first-party client). `signInAt` drives its pages with fetch and its own cookies, as a
// browser would between Kairan's redirects.
import assert from "node:assert/strict";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** A person at the provider: the claims it asserts. */
export interface ProviderAccount {
  readonly email: string;
  readonly email_verified: boolean;
  readonly name: string;
}

export interface TestProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly accounts: Map<string, ProviderAccount>;
  /** Stops answering (a provider that is down); its port stays known. */
  stop(): Promise<void>;
}

/** Starts a provider whose one client redirects to `redirectUri`. */
export async function startTestProvider(redirectUri: string): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, ProviderAccount>();
  const clientId = "kairan-test";
  const clientSecret = "a-client-secret-of-the-test-provider-0123456789";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    pkce: { methods: ["S256"], required: () => true },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      return account && { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The claims go in the ID token (Kairan also reads the user info when they do not).
    conformIdTokenClaims: false,
    async loadExistingGrant(ctx) {
      const { client, session } = ctx.oidc;
      if (client === undefined || session?.accountId === undefined) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["test-provider-cookie-key"] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
  });
  // Its warnings about development keys and interactions are expected here.
  provider.on("server_error", () => undefined);
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Follows the provider's pages from its authorization URL, signs in as `login` in its development
 * form, and returns the URL it sends the browser back to (Kairan's callback).
 */
export async function signInAt(authorizationUrl: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const send = async (url: string, init: { method?: string; body?: string } = {}) => {
    const response = await fetch(url, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        ...(init.body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
      },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1));
    }
    return { status: response.status, location: response.headers.get("location"), html: await response.text() };
  };
  let url = new URL(authorizationUrl);
  for (let hops = 0; hops < 10; hops++) {
    const answer = await send(url.href);
    if (answer.location !== null) {
      const next = new URL(answer.location, url);
      if (next.origin !== url.origin || next.pathname.endsWith("/signin/oidc/callback")) return next;
      url = next;
      continue;
    }
    // The development login form.
    const action = /<form[^>]*action="([^"]+)"/.exec(answer.html)?.[1];
    assert.ok(action, `the provider shows its login form (${answer.status}): ${answer.html.slice(0, 300)}`);
    const posted = await send(new URL(action, url).href, {
      method: "POST",
      body: new URLSearchParams({ prompt: "login", login, password: "any" }).toString(),
    });
    assert.ok(posted.location, `the provider takes the login (${posted.status}): ${posted.html.slice(0, 300)}`);
    url = new URL(posted.location, url);
  }
  assert.fail("the provider never sent the browser back");
}
