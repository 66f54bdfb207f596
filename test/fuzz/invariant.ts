// What every answer to a fuzz request must be: docs/api.md "Errors" and "OAuth failures", whatever the input.
import assert from "node:assert/strict";
import { parseXml } from "../../src/atom/parse.js";
import { multipartPartNames, refusedPartName } from "./inputs/multipart.js";
import type { FuzzAnswer, FuzzRequest } from "./send.js";

const header = (answer: FuzzAnswer, name: string): string => {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
};

/**
 * Asserts the answer is a success, or a refusal in the form docs/api.md "Errors" fixes: an `<error
 * code=...>` document with a 4xx status; for OAuth failures a 401 with `WWW-Authenticate` and an
 * `oauth_problem` form; for pages for people (the OAuth sign-in pages, the web interface: every
 * path outside /api/) a 4xx page, or a redirect within the site (to sign in, back from a form). Never a 5xx.
 * Every XML body, success or error, must be well-formed (stored or echoed input included).
 */
export function assertAnswerShape(request: FuzzRequest, answer: FuzzAnswer): void {
  const { status } = answer;
  const type = header(answer, "content-type");
  const text = answer.body.toString("utf8");
  const said = `${status} ${type}: ${text.slice(0, 300)}`;
  assert.ok(status < 500, `a server fault: ${said}`);
  assert.ok(status >= 200, `no such status: ${said}`);
  const page = !request.target.startsWith("/api/");
  if (status === 304) {
    // Only a poll that sent a validator, answered without a body and with the tag it matched.
    const conditional =
      request.headers["if-none-match"] !== undefined || request.headers["if-modified-since"] !== undefined;
    assert.ok(request.method === "GET" || request.method === "HEAD", `304 to a ${request.method}: ${said}`);
    assert.ok(conditional, `304 to a request without a validator: ${said}`);
    assert.equal(answer.body.length, 0, `304 with a body: ${said}`);
    assert.match(header(answer, "etag"), /^"[^"]+"$/, `304 without its tag: ${said}`);
    return;
  }
  if (status >= 300 && status < 400) {
    assert.ok(page, `only pages for people redirect: ${said}`);
    // The OAuth pages return to the client's callback; the web interface never leaves the site.
    if (!request.target.startsWith("/oauth/"))
      assert.match(header(answer, "location"), /^\/(?![/\\])/, `a redirect off the site: ${said}`);
    return;
  }
  if (request.method === "HEAD") return;
  if (status < 300) {
    assertPartsNamed(request, said);
    if (/xml/.test(type))
      assert.doesNotThrow(() => parseXml(text), `a success body that is not well-formed XML: ${said}`);
    return;
  }
  if (status === 401)
    assert.match(header(answer, "www-authenticate"), /^OAuth realm="[^"]*"$/, `401 without its challenge: ${said}`);
  if (status === 405) assert.ok(header(answer, "allow") !== "", `405 without Allow: ${said}`);
  if (type.startsWith("application/x-www-form-urlencoded")) {
    assert.equal(status, 401, `an OAuth problem is a 401: ${said}`);
    assert.match(text, /^oauth_problem=[a-z_]+&oauth_problem_advice=/, said);
    return;
  }
  if (type.startsWith("text/html")) {
    assert.ok(page, `an HTML refusal outside the pages for people: ${said}`);
    return;
  }
  if (request.target.startsWith("/hooks/") && type.startsWith("application/json")) {
    // Incoming webhooks answer JSON, refusals included (docs/api.md "Incoming webhooks").
    const { error } = JSON.parse(text) as { error?: { code?: string; message?: string } };
    assert.match(error?.code ?? "", /^[A-Z][A-Z0-9_]*$/, said);
    assert.ok((error?.message ?? "").trim().length > 0, `an error that does not say what was wrong: ${said}`);
    return;
  }
  assert.match(type, /^application\/xml; charset=utf-8$/, `a refusal that is not an <error> document: ${said}`);
  const error = parseXml(text);
  assert.equal(error.local, "error", said);
  assert.equal(error.ns, "", said);
  assert.match(error.attributes.get("code") ?? "", /^[A-Z][A-Z0-9_]*$/, said);
  assert.ok(error.text.trim().length > 0, `an error that does not say what was wrong: ${said}`);
}

/** A multipart body the API took names only `default` and `file0`..`file9`, each once. */
function assertPartsNamed(request: FuzzRequest, said: string): void {
  if (request.method !== "POST" || !request.target.startsWith("/api/") || request.body === undefined) return;
  const names = multipartPartNames(request.headers["content-type"] ?? "", request.body);
  const refused = names && refusedPartName(names);
  assert.equal(refused, undefined, `a multipart body with part "${refused}" was taken: ${said}`);
}
