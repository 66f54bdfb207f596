// `/oauth/authorize` (the person signs in and approves or denies) and `/oauth/verify` (oob): the
// pages of the OAuth flow. The protocol's signed endpoints are the API's (http/oauth/).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Context } from "../../context.js";
import { DomainError, TooManyRequestsError } from "../../domain/errors.js";
import type { User } from "../../domain/user.js";
import { formFields, sameToken } from "../../http-kit/form.js";
import { type QueryValues, queryValue } from "../../http-kit/query.js";
import { registerEndpoint } from "../../http-kit/route.js";
import { sendPage } from "../../http-kit/send.js";
import { approve, deny, findTemporaryCredential } from "../../services/oauth/oauth.js";
import { signInThrottled, trustDevice } from "../../services/session/sign-in.js";
import { issueSecondStep, pendingUser } from "../../services/two-factor/sign-in-step.js";
import { twoFactorStatus } from "../../services/two-factor/status.js";
import { checkSecondFactor } from "../../services/two-factor/two-factor.js";
import { bindingOf } from "../../services/two-factor/passkey-challenge.js";
import { authenticationOptions, checkPasskeySecondFactor } from "../../services/two-factor/passkeys.js";
import { deviceOf, setDeviceCookie } from "../session.js";
import type { TemporaryCredential } from "../../store/queries/oauth.js";
import {
  type AuthorizeForm,
  authorizePage,
  type SecondFactorChoice,
  authorizeSecondStepPage,
  deniedPage,
  problemPage,
  verifierPage,
} from "./authorize.js";

const UNKNOWN = "This sign-in link is unknown or has expired. Go back to the application and start again.";

/** Registers the HTML pages of the OAuth flow. */
export function registerOAuthPages(app: FastifyInstance, context: Context): void {
  registerEndpoint(app, "/oauth/authorize", {
    GET: async (request, reply) => {
      const credential = await pending(context, queryValue(request.query as QueryValues, "oauth_token"), reply);
      if (!credential) return reply;
      const token = queryValue(request.query as QueryValues, "oauth_token") ?? "";
      return sendPage(
        reply,
        200,
        authorizePage({
          appName: credential.app.name,
          level: credential.app.accessLevel,
          token,
          csrf: credential.csrf,
        }),
      );
    },
    POST: (request, reply) => handleDecision(context, request, reply),
  });
  registerEndpoint(app, "/oauth/verify", {
    GET: async (request, reply) => {
      const token = queryValue(request.query as QueryValues, "oauth_token");
      const credential = token === undefined ? undefined : await findTemporaryCredential(context, token);
      if (credential?.status !== "approved" || credential.verifier === null)
        return sendPage(reply, 404, problemPage("Link expired", UNKNOWN));
      return sendPage(reply, 200, verifierPage(credential.app.name, credential.verifier));
    },
  });
}

/** The credential a form or link names, if it still awaits a decision; otherwise sends the dead-end page. */
async function pending(
  context: Context,
  token: string | undefined,
  reply: FastifyReply,
): Promise<TemporaryCredential | undefined> {
  const credential = token ? await findTemporaryCredential(context, token) : undefined;
  if (!credential) {
    sendPage(reply, 404, problemPage("Link expired", UNKNOWN));
    return undefined;
  }
  if (credential.status !== "pending") {
    sendPage(reply, 409, problemPage("Already answered", "This request was already approved or denied."));
    return undefined;
  }
  return credential;
}

/** The form POST: CSRF check, then Deny, or sign-in and Approve; anything else is refused. */
async function handleDecision(context: Context, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const form = formFields(request);
  const token = form.get("oauth_token") ?? "";
  const credential = await pending(context, token, reply);
  if (!credential) return reply;
  // The token only the page we served carries: another site cannot post this form for the person.
  if (!sameToken(form.get("csrf_token") ?? "", credential.csrf)) {
    return sendPage(
      reply,
      403,
      problemPage("Form expired", "This form is no longer valid. Reload the page and try again."),
    );
  }
  const decision = form.get("decision");
  if (decision === "deny") return denied(context, credential, token, reply);
  const again = {
    appName: credential.app.name,
    level: credential.app.accessLevel,
    token,
    csrf: credential.csrf,
    email: form.get("email") ?? "",
  };
  // Only the Approve button approves: a form posted without a decision (a script, a half-filled
  // request) must not authorize an application, so it is refused before the password is tried.
  if (decision !== "approve") {
    return sendPage(reply, 400, authorizePage({ ...again, error: "Choose Approve or Deny: nothing was authorized." }));
  }
  const secondStep = form.get("second_step");
  if (secondStep !== null)
    return secondStepAndApprove(context, request, reply, credential, { ...again, pending: secondStep });
  return signInAndApprove(context, request, reply, credential, { ...again, password: form.get("password") ?? "" });
}

/** Approve pressed on the second step: the code proves the second factor, then approve. */
async function secondStepAndApprove(
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  credential: TemporaryCredential,
  form: AuthorizeForm & { readonly pending: string },
): Promise<FastifyReply> {
  const user = await pendingUser(context, "oauth", form.pending, credential.csrf);
  if (!user) {
    const { email: _typed, ...again } = form;
    return sendPage(reply, 200, authorizePage({ ...again, error: "This sign-in took too long. Sign in again." }));
  }
  const fields = formFields(request);
  const code = fields.get("code") ?? "";
  // A passkey's answer (the passkey form), else a code.
  const response = fields.get("response");
  const address = context.clientAddress(request);
  try {
    if (response !== null)
      await checkPasskeySecondFactor(context, user, {
        response,
        binding: bindingOf("second-step", form.pending),
        address,
      });
    else await checkSecondFactor(context, user, { code, address });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error instanceof TooManyRequestsError) reply.header("retry-after", String(error.retryAfterSeconds));
    const status = error instanceof TooManyRequestsError ? 429 : 400;
    return sendPage(
      reply,
      status,
      authorizeSecondStepPage(
        { ...form, email: user.email, error: error.message },
        await secondFactorsOf(context, user.id, form.pending),
      ),
    );
  }
  return approveAndGo(context, reply, credential, form.token, user, context.clientAddress(request));
}

/** Deny pressed: the credential is spent; back to the callback with `denied=`, or a page for oob. */
async function denied(
  context: Context,
  credential: TemporaryCredential,
  token: string,
  reply: FastifyReply,
): Promise<FastifyReply> {
  await deny(context, credential);
  if (credential.callback === "oob") return sendPage(reply, 200, deniedPage(credential.app.name));
  return reply
    .header("cache-control", "no-store")
    .redirect(callbackWith(credential.callback, { oauth_token: token, denied: token }), 303);
}

/** Approve pressed: sign the person in (throttled), then approve and send the browser on. */
async function signInAndApprove(
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  credential: TemporaryCredential,
  form: AuthorizeForm & { readonly email: string; readonly password: string },
): Promise<FastifyReply> {
  const { password, ...again } = form;
  const { token } = form;
  const attempt = {
    email: form.email,
    password,
    address: context.clientAddress(request),
    device: deviceOf(request),
    via: "oauth" as const,
  };
  const user = await signInThrottled(context, attempt).catch((error: unknown) => {
    if (error instanceof TooManyRequestsError) return error;
    throw error;
  });
  // Throttled: the same form, saying so, with the status and Retry-After a script would read.
  if (user instanceof TooManyRequestsError) {
    return sendPage(
      reply.header("retry-after", String(user.retryAfterSeconds)),
      429,
      authorizePage({ ...again, error: user.message }),
    );
  }
  if (!user)
    return sendPage(reply, 200, authorizePage({ ...again, error: "The e-mail address or the password is wrong." }));
  setDeviceCookie(context, reply, await trustDevice(context, user.id, attempt.device));
  const status = await twoFactorStatus(context, user.id);
  // Required but not set up: an application gets nothing until the person has a second factor.
  if (status.mustEnrol)
    return sendPage(
      reply,
      403,
      authorizePage({
        ...again,
        error:
          "This site requires two-factor sign-in for your account. Sign in to Kairan, set it up on your account page, then try again.",
      }),
    );
  if (status.hasSecondFactor) {
    const pending = await issueSecondStep(context, "oauth", user.id, credential.csrf);
    return sendPage(
      reply.header("cache-control", "no-store"),
      200,
      authorizeSecondStepPage({ ...again, pending }, await secondFactorsOf(context, user.id, pending)),
    );
  }
  return approveAndGo(context, reply, credential, token, user, attempt.address);
}

/** Records the approval and sends the browser on: to the callback with the verifier, or to the oob page. */
async function approveAndGo(
  context: Context,
  reply: FastifyReply,
  credential: TemporaryCredential,
  token: string,
  user: User,
  address: string,
): Promise<FastifyReply> {
  const verifier = await approve(context, { credential, user, address });
  if (verifier === undefined)
    return sendPage(reply, 409, problemPage("Already answered", "This request was already approved or denied."));
  const target =
    credential.callback === "oob"
      ? `/oauth/verify?${new URLSearchParams({ oauth_token: token }).toString()}`
      : callbackWith(credential.callback, { oauth_token: token, oauth_verifier: verifier });
  return reply.header("cache-control", "no-store").redirect(target, 303);
}

/** The callback URL with parameters added to its query, keeping what it already carries. */
function callbackWith(callback: string, fields: Readonly<Record<string, string>>): string {
  const hash = callback.indexOf("#");
  const base = hash === -1 ? callback : callback.slice(0, hash);
  const added = new URLSearchParams(fields).toString();
  return `${base}${base.includes("?") ? "&" : "?"}${added}`;
}

/** What the second step offers the account: the code field with TOTP, a passkey request with passkeys. */
async function secondFactorsOf(context: Context, userId: number, pending: string): Promise<SecondFactorChoice> {
  const status = await twoFactorStatus(context, userId);
  const passkeyOptions =
    status.passkeys > 0
      ? JSON.stringify(await authenticationOptions(context, "second-factor", bindingOf("second-step", pending), userId))
      : undefined;
  return { totp: status.totpOn, passkeyOptions };
}
