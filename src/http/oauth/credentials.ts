// `/oauth/initiate` and `/oauth/token` (docs/api.md "OAuth"): signed requests that hand out credentials.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type OAuthVerifier, type TokenResolver, createOAuthVerifier } from "../../auth/oauth-verify.js";
import { OAuthProblem, type OAuthRequest } from "../../auth/oauth1.js";
import {
  exchangePassword,
  exchangeVerifier,
  findTemporaryCredential,
  issueTemporaryCredentials,
} from "../../services/oauth/oauth.js";
import type { TemporaryCredential } from "../../store/queries/oauth.js";
import type { Context } from "../../context.js";
import { credentialsOf } from "../caller.js";
import { registerEndpoint } from "../../http-kit/route.js";
import { sendForm } from "../../http-kit/send.js";

/** Registers `/oauth/initiate` and `/oauth/token`, each for GET and POST (some clients use GET). */
export function registerOAuthCredentials(app: FastifyInstance, context: Context): void {
  const verifier = createOAuthVerifier(context.store, context.clock);
  const initiate = (request: FastifyRequest, reply: FastifyReply) => handleInitiate(context, verifier, request, reply);
  const token = (request: FastifyRequest, reply: FastifyReply) => handleToken(context, verifier, request, reply);
  registerEndpoint(app, "/oauth/initiate", { GET: initiate, POST: initiate });
  registerEndpoint(app, "/oauth/token", { GET: token, POST: token });
}

/** Temporary credentials: signed with the consumer only; a missing oauth_callback means "oob". */
async function handleInitiate(
  context: Context,
  verifier: OAuthVerifier,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { app, request: signed } = await verifier.verify(
    credentialsOf(request, context.config.publicUrl),
    async (oauth) => {
      if (oauth.token !== undefined)
        throw new OAuthProblem(
          "parameter_rejected",
          "oauth_token is not expected when asking for temporary credentials",
        );
      return { secret: "", grant: undefined };
    },
  );
  const issued = await issueTemporaryCredentials(context, { app, callback: signed.callback ?? "oob" });
  return sendForm(reply, {
    oauth_token: issued.token,
    oauth_token_secret: issued.secret,
    oauth_callback_confirmed: "true",
  });
}

/** Token credentials: the temporary credential plus verifier, or xAuth (no token, x_auth_* fields). */
async function handleToken(
  context: Context,
  verifier: OAuthVerifier,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const {
    app,
    request: signed,
    grant,
    legacySigned,
  } = await verifier.verify(credentialsOf(request, context.config.publicUrl), temporaryCredentialOf(context));
  const issued = grant
    ? await exchangeVerifier(context, { credential: grant, verifier: signed.verifier })
    : await exchangePassword(context, {
        app,
        grant: {
          username: param(signed, "x_auth_username"),
          password: param(signed, "x_auth_password"),
          address: context.clientAddress(request),
        },
      });
  if (legacySigned) {
    request.log.warn(
      { consumerKey: app.consumerKey, userId: grant?.userId },
      "legacy signing accepted: /oauth/token signed with an empty token secret",
    );
  }
  return sendForm(reply, { oauth_token: issued.token, oauth_token_secret: issued.secret });
}

/** The `/oauth/token` request's temporary credential (none for xAuth). @throws OAuthProblem parameter_absent, token_rejected */
function temporaryCredentialOf(context: Context): TokenResolver<TemporaryCredential | undefined> {
  return async (oauth, consumer) => {
    if (oauth.token === undefined) {
      if (param(oauth, "x_auth_mode") !== "client_auth")
        throw new OAuthProblem("parameter_absent", "oauth_token is missing (or x_auth_mode=client_auth for xAuth)");
      return { secret: "", grant: undefined };
    }
    const credential = await findTemporaryCredential(context, oauth.token);
    if (!credential || credential.app.id !== consumer.id) {
      throw new OAuthProblem(
        "token_rejected",
        "oauth_token is unknown, expired, already exchanged or not issued to this application",
      );
    }
    // Catalyst::Authentication::Credential::OAuth 0.04 signs this step with an empty token
    // secret; only for applications the operator marked, and only once the person approved.
    const acceptEmptySecret = consumer.legacySigning && credential.status === "approved";
    return { secret: credential.secret, grant: credential, acceptEmptySecret };
  };
}

/** A signed parameter's value; the last one when repeated. */
function param(request: OAuthRequest, name: string): string | undefined {
  return request.params.findLast(([key]) => key === name)?.[1];
}
