import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hashToken } from "../../../auth/token.js";
import { UnsupportedMediaTypeError, ValidationError } from "../../../domain/errors.js";
import { jsonDepth, readHookPayload } from "../../../domain/incoming-hook.js";
import { HOOK_LIMITS } from "../../../domain/limits.js";
import { hookErrorJson, hookPostedJson } from "../../../present/incoming-hook.js";
import { HOOK_APP, postThroughHook } from "../../../services/hook/incoming-hook.js";
import type { Context } from "../../../context.js";
import { mediaType } from "../../../http-kit/form.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { logStorageFull, toErrorReply } from "../../errors.js";

/**
 * `POST /hooks/<secret>` (docs/api.md "Incoming webhooks"): a tool's post, in Slack's
 * incoming-webhook JSON or `{title, text}`, made into a topic, a comment or a chat message. The
 * secret is the credential; any address no hook has is the same 404. Answers and refusals are
 * JSON: 201 `{"kind","id","url"}`, or `{"error":{"code","message"}}` with the API's status.
 */
export function registerHooks(app: FastifyInstance, context: Context): void {
  registerEndpoint(
    app,
    "/hooks/:secret",
    {
      async POST(request, reply) {
        const secret = (request.params as Record<string, string | undefined>).secret ?? "";
        // The address's own quota, counted before anything is read (a wrong secret is counted by the address's).
        const key = `hook ${hashToken(secret)}`;
        await context.limitToken(request, { user: { id: 0, name: "", email: "" }, app: HOOK_APP }, key);
        const post = readHookPayload(readJson(request));
        const posted = await postThroughHook(context, secret, post);
        return reply
          .code(201)
          .header("content-type", "application/json; charset=utf-8")
          .header("cache-control", "no-store")
          .send(hookPostedJson(context.baseUrl(), posted));
      },
    },
    { own: { bodyLimit: HOOK_LIMITS.bodyMaxBytes, errorHandler: hookError } },
  );
}

/**
 * The body as JSON: `application/json` (Slack's form), or a form with the JSON in `payload`
 * (Slack's older form). Its nesting is bounded before it is parsed.
 * @throws UnsupportedMediaTypeError UNSUPPORTED_MEDIA_TYPE; ValidationError BODY_REQUIRED, HOOK_JSON_INVALID, HOOK_JSON_TOO_DEEP
 */
function readJson(request: FastifyRequest): unknown {
  const type = mediaType(request);
  const raw = typeof request.body === "string" ? request.body : "";
  let text: string;
  if (type === "application/json") text = raw;
  else if (type === "application/x-www-form-urlencoded") text = new URLSearchParams(raw).get("payload") ?? "";
  else {
    throw new UnsupportedMediaTypeError(
      "UNSUPPORTED_MEDIA_TYPE",
      "Send the payload as application/json (or as a form field named payload).",
    );
  }
  if (text.trim() === "") throw new ValidationError("BODY_REQUIRED", "The request body is empty.");
  if (jsonDepth(text) > HOOK_LIMITS.jsonMaxDepth) {
    throw new ValidationError(
      "HOOK_JSON_TOO_DEEP",
      `The JSON body nests deeper than ${HOOK_LIMITS.jsonMaxDepth} levels of arrays and objects.`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ValidationError("HOOK_JSON_INVALID", "The body is not valid JSON.");
  }
}

/** Refusals of the hook addresses: the API's status and code, as JSON. Faults are logged, never echoed. */
function hookError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const answer = toErrorReply(error);
  if (!logStorageFull(request, error)) {
    if (answer.status >= 500 && answer.status !== 503) request.log.error({ err: error }, "request failed");
    else request.log.info({ code: answer.code, status: answer.status }, "request refused");
  }
  if (answer.retryAfterSeconds !== undefined) reply.header("retry-after", String(answer.retryAfterSeconds));
  if (answer.status === 429 || answer.status === 503) reply.header("connection", "close");
  void reply
    .code(answer.status)
    .header("content-type", "application/json; charset=utf-8")
    .header("cache-control", "no-store")
    .send(hookErrorJson(answer.code, answer.message));
}
