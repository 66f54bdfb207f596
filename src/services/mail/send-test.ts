// `kairan mail send-test`: one message written to the outbox like any other and delivered at once
// by the command's own process, so that the operator sees the relay's answer (or its refusal).
import type { MailConfig } from "../../config/mail.js";
import { testMessage } from "../../mail/send/test-message.js";
import type { ServiceContext } from "../context.js";
import { queueMail } from "./outbox.js";
import { classifyFailure } from "./retry.js";
import type { MailTransport } from "./transport.js";
import { siteNameIn } from "../settings/site-locale.js";

/** The relay refused the test message or could not be reached; `reason` holds no secret. */
export class MailDeliveryError extends Error {
  override name = "MailDeliveryError";
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** What became of the test message. */
export interface TestMailResult {
  readonly messageId: string;
  /** The relay's answer (`250 ...`), or the outbox file's path. */
  readonly answer: string;
}

/** Long enough for one delivery; the server's senders skip the row meanwhile. */
const CLAIM_MS = 5 * 60_000;

/**
 * Queues the test message to `to` and delivers it through `transport` now. The row is claimed in
 * the transaction that writes it, so no server's sender sends it too. It is tried once: sent, or
 * `failed` with the reason (a check of the settings is not retried behind the operator's back).
 * @throws MailDeliveryError when the delivery failed
 */
export async function sendTestMail(
  ctx: Pick<ServiceContext, "store" | "clock">,
  mail: Pick<MailConfig, "domain">,
  transport: MailTransport,
  to: string,
  siteUrl: string,
): Promise<TestMailResult> {
  const now = ctx.clock.now();
  const { row, fromName } = await ctx.store.transaction(async (tx) => {
    const messageId = await queueMail(tx, mail, testMessage(to, siteUrl, now), now);
    const claimed = await tx.mailOutbox.claimOne(messageId, now, now + CLAIM_MS);
    if (claimed === undefined) throw new Error("the test message was not in the outbox after writing it");
    return { row: claimed, fromName: await siteNameIn(tx) };
  });
  let answer: string;
  try {
    answer = await transport.deliver(row, fromName);
  } catch (error) {
    const { reason } = classifyFailure(error, transport.secrets);
    await ctx.store.transaction((tx) => tx.mailOutbox.markAttemptFailed(row.id, reason, undefined));
    throw new MailDeliveryError(reason);
  }
  await ctx.store.transaction((tx) => tx.mailOutbox.markSent([row.id], ctx.clock.now()));
  return { messageId: row.message_id, answer };
}
