// A WebSub subscriber written to the W3C Recommendation (sections 5.3 and 7), for tests: its own
// HTTP server on 127.0.0.1. It confirms only the intents it declared (mode and topic), echoing
// the challenge as the whole body; it takes content distributions (POST), checking
// X-Hub-Signature with its secret (node:crypto), and keeps the ones whose signature holds apart
// from the ones that do not (the spec: answer 2xx, but ignore content with a bad signature).
import { createHmac, timingSafeEqual } from "node:crypto";
import { type IncomingHttpHeaders, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A verification request the subscriber got. */
export interface Verification {
  readonly mode: string | null;
  readonly topic: string | null;
  readonly challenge: string | null;
  readonly leaseSeconds: string | null;
  readonly confirmed: boolean;
}

/** A content distribution the subscriber got. */
export interface Distribution {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The signature matched the secret (or no secret is held and none was sent). */
  readonly authentic: boolean;
}

/** A listening subscriber. */
export interface Subscriber {
  readonly callback: string;
  readonly verifications: Verification[];
  readonly distributions: Distribution[];
  /** Declares an intent the subscriber will confirm (and forgets any other for the topic). */
  intend(mode: "subscribe" | "unsubscribe", topic: string): void;
  /** The secret the subscriber gave (distributions are checked against it). */
  secret: string | undefined;
  close(): Promise<void>;
}

/** Starts a subscriber whose callback is `http://127.0.0.1:<port>/callback`. */
export async function startSubscriber(): Promise<Subscriber> {
  const intents = new Set<string>();
  const verifications: Verification[] = [];
  const distributions: Distribution[] = [];
  const subscriber: Subscriber = {
    callback: "",
    verifications,
    distributions,
    secret: undefined,
    intend(mode, topic) {
      intents.delete(`subscribe ${topic}`);
      intents.delete(`unsubscribe ${topic}`);
      intents.add(`${mode} ${topic}`);
    },
    close: async () => undefined,
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "GET") {
      const mode = url.searchParams.get("hub.mode");
      const topic = url.searchParams.get("hub.topic");
      const challenge = url.searchParams.get("hub.challenge");
      const confirmed = challenge !== null && intents.has(`${mode} ${topic}`);
      verifications.push({
        mode,
        topic,
        challenge,
        leaseSeconds: url.searchParams.get("hub.lease_seconds"),
        confirmed,
      });
      // 5.3.1: confirm with a 2xx and the challenge as the body; refuse with 404.
      if (confirmed) {
        intents.delete(`${mode} ${topic}`);
        response.writeHead(200, { "content-type": "text/plain" }).end(challenge);
      } else response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      distributions.push({
        headers: request.headers,
        body: body.toString("utf8"),
        authentic: signatureHolds(subscriber.secret, request.headers["x-hub-signature"], body),
      });
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(subscriber, {
    callback: `http://127.0.0.1:${port}/callback`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** 7.1: `X-Hub-Signature: method=signature`, the HMAC of the body under the secret. */
function signatureHolds(secret: string | undefined, header: string | string[] | undefined, body: Buffer): boolean {
  if (secret === undefined) return header === undefined;
  if (typeof header !== "string") return false;
  const [method, signature] = header.split("=");
  if (method !== "sha256" || signature === undefined) return false;
  const expected = createHmac("sha256", secret).update(body).digest();
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
