// Requests Kairan makes to addresses its users gave (webhooks; WebSub callbacks later): never to
// the server's own network unless the operator allows it. The check is made on the addresses the
// connection is about to use, in the socket's own DNS lookup, so a name that resolves to a public
// address when saved and to 127.0.0.1 when used (DNS rebinding) is refused all the same. Redirects
// are never followed (a public address could send the request on to a private one), and the
// answer is read only up to an excerpt.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, type LookupFunction, isIP } from "node:net";

/** Ranges no request goes to unless allowed: loopback, private, link-local (cloud metadata), and the like. */
const PRIVATE_RANGES: readonly (readonly [string, number, "ipv4" | "ipv6"])[] = [
  ["0.0.0.0", 8, "ipv4"], // "this" network
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"], // carrier-grade NAT
  ["127.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"], // link-local, 169.254.169.254 (cloud metadata)
  ["172.16.0.0", 12, "ipv4"],
  ["192.0.0.0", 24, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["198.18.0.0", 15, "ipv4"], // benchmarking
  ["224.0.0.0", 4, "ipv4"], // multicast
  ["240.0.0.0", 4, "ipv4"], // reserved, broadcast
  ["::", 128, "ipv6"],
  ["::1", 128, "ipv6"],
  ["64:ff9b::", 96, "ipv6"], // NAT64 of any IPv4 address
  ["fc00::", 7, "ipv6"], // unique local (fd00:ec2::254, a cloud metadata address, among them)
  ["fe80::", 10, "ipv6"], // link-local
  ["ff00::", 8, "ipv6"], // multicast
];

// IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged by the IPv4 ranges: BlockList maps them.
const PRIVATE = new BlockList();
for (const [network, prefix, family] of PRIVATE_RANGES) PRIVATE.addSubnet(network, prefix, family);

/** Whether `address` (an IP address) is one a request is refused unless private addresses are allowed. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A request refused before it was sent: a private address, or a scheme other than http(s). */
export class OutboundRefusedError extends Error {
  readonly code = "OUTBOUND_ADDRESS_REFUSED";
}

/**
 * The socket's lookup: resolves as usual, then refuses the connection when any address of the
 * name is private (not only the first: a client may try them all).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const refused = allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (refused !== undefined)
        return callback(
          new OutboundRefusedError(`${hostname} resolves to ${refused.address}, a private address`),
          "",
          0,
        );
      const first = addresses[0];
      if (first === undefined) return callback(new Error(`${hostname} has no address`), "", 0);
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

/** One agent per scheme and setting: no pooled connection outlives the lookup that checked it. */
const AGENTS = new Map<string, http.Agent>();

function agentFor(protocol: "http:" | "https:", allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = AGENTS.get(key);
  if (agent === undefined) {
    const options = { keepAlive: false, lookup: guardedLookup(allowPrivate) };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    AGENTS.set(key, agent);
  }
  return agent;
}

/** What to send. */
export interface OutboundRequest {
  readonly url: string;
  readonly method: "POST" | "GET";
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The whole exchange, connecting to the end of the excerpt. */
  readonly timeoutMs: number;
  /** Characters of the answer kept; the rest is not read. */
  readonly excerptChars: number;
  /** The operator's `--webhook-allow-private`. */
  readonly allowPrivate: boolean;
}

/** What came back: the status and the start of the body. A 3xx is an answer like any other (not followed). */
export interface OutboundResponse {
  readonly status: number;
  readonly excerpt: string;
}

/**
 * Sends `request` and reads the start of the answer.
 * @throws OutboundRefusedError for a private address (a literal one, or a name resolving to one),
 *   or an Error naming the network failure or the timeout
 */
export function guardedRequest(request: OutboundRequest): Promise<OutboundResponse> {
  const url = new URL(request.url);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return Promise.reject(new OutboundRefusedError(`${url.protocol} addresses are not requested`));
  // An address literal is connected to without a lookup: judged here.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!request.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host))
    return Promise.reject(new OutboundRefusedError(`${host} is a private address`));
  const send = url.protocol === "https:" ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
    const outgoing = send(url, {
      method: request.method,
      agent: agentFor(url.protocol as "http:" | "https:", request.allowPrivate),
      headers: { ...request.headers, ...(body === undefined ? {} : { "content-length": String(body.length) }) },
    });
    const timer = setTimeout(
      () => outgoing.destroy(new Error(`no answer within ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      outcome();
    };
    outgoing.on("error", (error) => finish(() => reject(error)));
    outgoing.on("response", (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      // Four bytes per character at most: enough for the excerpt, whatever the encoding.
      const wanted = request.excerptChars * 4;
      const done = () => {
        const text = Buffer.concat(chunks).toString("utf8");
        finish(() =>
          resolve({ status: response.statusCode ?? 0, excerpt: [...text].slice(0, request.excerptChars).join("") }),
        );
      };
      response.on("data", (chunk: Buffer) => {
        if (bytes >= wanted) return;
        chunks.push(chunk);
        bytes += chunk.length;
        if (bytes >= wanted) {
          response.destroy();
          done();
        }
      });
      response.on("end", done);
      response.on("error", () => done());
    });
    outgoing.end(body);
  });
}
