import type { FastifyRequest } from "fastify";

/** `::ffff:192.0.2.1` and `192.0.2.1` are one client. */
function normalize(address: string): string {
  const trimmed = address.trim().toLowerCase();
  return trimmed.startsWith("::ffff:") && trimmed.includes(".") ? trimmed.slice("::ffff:".length) : trimmed;
}

/**
 * The address a request comes from, for rate limits and sign-in throttling. The peer address,
 * unless the peer is a trusted reverse proxy (--trust-proxy): then the right-most address in
 * X-Forwarded-For that is not itself a trusted proxy, the way proxies append to that header. Only
 * addresses are trusted, never a Host or protocol header: OAuth base strings stay as received.
 */
export function clientAddressResolver(trustProxy: readonly string[]): (request: FastifyRequest) => string {
  const trusted = new Set(trustProxy.map(normalize));
  return (request) => {
    const peer = normalize(request.socket.remoteAddress ?? "unknown");
    if (!trusted.has(peer)) return peer;
    const header = request.headers["x-forwarded-for"];
    const hops = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").map(normalize).filter(Boolean);
    for (let index = hops.length - 1; index >= 0; index--) {
      const hop = hops[index] as string;
      if (!trusted.has(hop)) return hop;
    }
    return hops[0] ?? peer;
  };
}
