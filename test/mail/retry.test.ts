import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  FIRST_RETRY_MS,
  MAX_ATTEMPTS,
  MAX_RETRY_MS,
  classifyFailure,
  retryDelayMs,
  safeReason,
} from "../../src/services/mail/retry.js";
import { secretsOf } from "../../src/services/mail/smtp-transport.js";

const smtpError = (code: string, responseCode: number, message: string) =>
  Object.assign(new Error(message), { code, responseCode });

describe("mail retries", () => {
  it("doubles the wait from 30 s up to one hour, and never beyond", () => {
    assert.equal(retryDelayMs(1), FIRST_RETRY_MS);
    assert.equal(retryDelayMs(2), 2 * FIRST_RETRY_MS);
    assert.equal(retryDelayMs(7), 64 * FIRST_RETRY_MS);
    assert.equal(retryDelayMs(8), MAX_RETRY_MS);
    assert.equal(retryDelayMs(1000), MAX_RETRY_MS);
    let total = 0;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) total += retryDelayMs(attempt);
    // From the first attempt to the last: hours, not days (the relay itself retries for days).
    assert.ok(total > 2 * 3_600_000 && total < 6 * 3_600_000, `${total / 3_600_000} h`);
  });

  it("fails for good only on a 5xx answer to the message itself", () => {
    assert.equal(classifyFailure(smtpError("EENVELOPE", 550, "550 no such user")).permanent, true);
    assert.equal(classifyFailure(smtpError("EMESSAGE", 554, "554 rejected")).permanent, true);
    assert.equal(classifyFailure(smtpError("EMESSAGE", 451, "451 try later")).permanent, false);
    // A refused login is the relay's configuration: retried until the operator fixes it.
    assert.equal(classifyFailure(smtpError("EAUTH", 535, "535 bad login")).permanent, false);
    assert.equal(
      classifyFailure(Object.assign(new Error("connect ECONNREFUSED"), { code: "ESOCKET" })).permanent,
      false,
    );
    assert.equal(classifyFailure("odd").permanent, false);
  });

  it("keeps the reason on one short line with the password masked, as written and URL-encoded", () => {
    const secrets = secretsOf("smtp://user:p%40ss%20w@relay.example.com:587");
    assert.deepEqual(secrets, ["p%40ss%20w", "p@ss w"]);
    const reason = classifyFailure(smtpError("EAUTH", 535, "535 bad password p@ss w\r\n(p%40ss%20w)"), secrets).reason;
    assert.equal(reason, "EAUTH: 535 bad password *** (***)");
    assert.equal(safeReason("x".repeat(1000), []).length, 300);
    assert.deepEqual(secretsOf("smtp://relay.example.com"), []);
  });
});
