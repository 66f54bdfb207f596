import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { XML_DECLARATION, escapeAttribute, escapeText } from "../atom/build.js";
import { XmlParseError } from "../atom/parse.js";
import { OAuthProblem } from "../auth/oauth1.js";
import {
  DomainError,
  type ErrorKind,
  StorageFullError,
  TooManyRequestsError,
  UnavailableError,
} from "../domain/errors.js";
import { asStorageFull } from "../store/storage-full.js";
import { drainRefusedBody, drainsBeforeAnswer } from "../http-kit/refused-body.js";

/** THE table: each kind of domain error and the status it is answered with (docs/api.md "Errors"). */
const STATUS_OF: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  uri_too_long: 414,
  gone: 410,
  unavailable: 503,
  storage_full: 507,
};

/**
 * Errors Node's HTTP parser raises before there is a request to route (the server's 'clientError'):
 * the answer is written to the socket as is, which is then closed. Anything else is a malformed request.
 */
const CLIENT_ERRORS: Readonly<Record<string, { status: number; code: string; message: string }>> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: "HEADERS_TOO_LARGE",
    message: "The request line and headers are larger than the server reads.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: "REQUEST_TIMEOUT", message: "The request was not received in time." },
};
const MALFORMED_REQUEST = { status: 400, code: "MALFORMED_REQUEST", message: "The request is not well-formed HTTP." };

/** Framework errors that are the client's fault, with the code and text we answer them with. */
const FRAMEWORK_ERRORS: Readonly<Record<string, { status: number; code: string; message: string }>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: "BODY_TOO_LARGE", message: "The request body is too large." },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: "UNSUPPORTED_MEDIA_TYPE",
    message: "This body type is not accepted.",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: "INVALID_CONTENT_LENGTH",
    message: "Content-Length does not match the body.",
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: "BODY_REQUIRED", message: "The request body is empty." },
  FST_ERR_BAD_URL: {
    status: 400,
    code: "INVALID_URL",
    message: "The URL path is not valid (a broken percent-encoding).",
  },
};

/**
 * Every OAuth failure is 401 (docs/api.md "OAuth failures"), also those RFC 5849 §3.2 would allow as 400: the
 * clients we serve branch on the status alone. The body is a form (OAuth Problem Reporting).
 */
const OAUTH_PROBLEM_STATUS = 401;

/** `oauth_problem=<name>&oauth_problem_advice=<text>`, the body of an OAuth failure. */
export function oauthProblemBody(problem: OAuthProblem): string {
  return `oauth_problem=${encodeURIComponent(problem.problem)}&oauth_problem_advice=${encodeURIComponent(problem.message)}`;
}

/** An error as the client sees it. */
export interface ErrorReply {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** Seconds after which trying again may succeed (429, 503): sent as Retry-After. */
  readonly retryAfterSeconds?: number;
}

/**
 * Maps any thrown value to what the client is told; unknown errors become a bare 500. A full disk
 * met outside the store (a blob write's ENOSPC) is answered as the store's are: 507 STORAGE_FULL.
 */
export function toErrorReply(thrown: unknown): ErrorReply {
  const error = asStorageFull(thrown);
  if (error instanceof TooManyRequestsError || error instanceof UnavailableError) {
    return {
      status: STATUS_OF[error.kind],
      code: error.code,
      message: error.message,
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  if (error instanceof DomainError) return { status: STATUS_OF[error.kind], code: error.code, message: error.message };
  if (error instanceof XmlParseError) return { status: 400, code: error.code, message: error.message };
  const known = FRAMEWORK_ERRORS[(error as FastifyError | undefined)?.code ?? ""];
  if (known) return known;
  const status = (error as FastifyError | undefined)?.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, code: "BAD_REQUEST", message: "The request could not be read." };
  }
  return {
    status: 500,
    code: "INTERNAL_ERROR",
    message: "The server failed to handle this request; it has been logged.",
  };
}

/** `<error code="...">text</error>`. */
export function errorDocument(code: string, message: string): string {
  return `${XML_DECLARATION}\n<error code="${escapeAttribute(code)}">${escapeText(message)}</error>\n`;
}

/** The fastify error handler: one place where errors become responses. Faults are logged, never echoed. */
export function errorHandler(realm: () => string) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<void> => {
    if (error instanceof OAuthProblem) {
      request.log.info({ oauthProblem: error.problem }, "request refused");
      return reply
        .code(OAUTH_PROBLEM_STATUS)
        .header("www-authenticate", `OAuth realm="${escapeAttribute(realm())}"`)
        .header("content-type", "application/x-www-form-urlencoded")
        .send(oauthProblemBody(error));
    }
    const answer = toErrorReply(error);
    // A 503 the server chose (shutting down, uploads full) is a refusal, not a fault.
    const fault = answer.status >= 500 && !(error instanceof DomainError);
    if (!logStorageFull(request, error)) {
      if (fault) request.log.error({ err: error }, "request failed");
      else request.log.info({ code: answer.code, status: answer.status }, "request refused");
    }
    if (answer.status === 401) reply.header("www-authenticate", `OAuth realm="${escapeAttribute(realm())}"`);
    if (answer.retryAfterSeconds !== undefined) reply.header("retry-after", String(answer.retryAfterSeconds));
    // Shedding load: the refused body is not read (it may be a 50 MB upload); the connection closes.
    if (answer.status === 429 || answer.status === 503) reply.header("connection", "close");
    const send = () =>
      reply
        .code(answer.status)
        .header("content-type", "application/xml; charset=utf-8")
        .send(errorDocument(answer.code, answer.message));
    // Any other refusal (a body too large, a full disk, a bad part of an upload) reads the rest of
    // the body first (bounded), so that a client still writing it gets to read the answer.
    if (drainsBeforeAnswer(answer.status, request.raw)) return drainRefusedBody(request.raw).then(() => void send());
    return send();
  };
}

/**
 * Logs a full disk as one error line that says so (the operator must free space), and tells
 * whether it did; any other error is left to the caller.
 */
export function logStorageFull(request: FastifyRequest, error: unknown): boolean {
  const full = asStorageFull(error);
  if (!(full instanceof StorageFullError)) return false;
  request.log.error(
    { code: full.code, reason: full.reason },
    `storage full (${full.reason}): no space left for the database or the stored files; writes are refused with 507 until space is freed`,
  );
  return true;
}

/** Node's private link from a socket to the response being written on it. */
interface SocketWithResponse extends Socket {
  readonly _httpMessage?: { readonly headersSent: boolean } | null;
}

/**
 * The server's 'clientError' handler: header overflow (431), request timeout (408) and malformed
 * HTTP (400) answered with an `<error>` document like every other refusal, then the socket closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const answer = CLIENT_ERRORS[error.code ?? ""] ?? MALFORMED_REQUEST;
  // A response already under way (a slow upload's request timeout) cannot get a second status line.
  if (socket.writable && (socket as SocketWithResponse)._httpMessage?.headersSent !== true) {
    const body = errorDocument(answer.code, answer.message);
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}\r\nContent-Type: application/xml; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
