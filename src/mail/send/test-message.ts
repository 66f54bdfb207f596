// The message of `kairan mail send-test`: for the operator who checks the mail settings, in English
// like the command line itself.
import type { OutgoingMail } from "../message.js";

/** The test message to `to`, naming the site and the time it was written. */
export function testMessage(to: string, siteUrl: string, at: number): OutgoingMail {
  const when = new Date(at).toISOString();
  return {
    kind: "test",
    to,
    subject: "Kairan test message",
    text: [
      "This message was sent by `kairan mail send-test` to check the mail settings of",
      `the Kairan site ${siteUrl}.`,
      "",
      `Written at ${when}. If you can read it, Kairan's mail reaches this address.`,
      "",
    ].join("\n"),
  };
}
