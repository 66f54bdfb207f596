// Health checks for load balancers and orchestrators: plain text, no credentials, outside the
// rate limits and the info log (they poll every few seconds).
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Store } from "../store/store.js";
import { registerEndpoint } from "../http-kit/route.js";

/** How long /readyz waits for the database before it answers 503. */
export const READY_TIMEOUT_MS = 2000;

/**
 * `GET /healthz`: the process serves requests (200 `ok`). `GET /readyz`: the database answers a
 * trivial query within READY_TIMEOUT_MS (200 `ready`), else 503 with one line saying why. During
 * shutdown both answer 503 like every request (guards.ts), so a balancer stops sending at once.
 */
export function registerHealth(app: FastifyInstance, store: Store): void {
  const options = { operational: true, public: true } as const;
  registerEndpoint(app, "/healthz", { GET: async (_request, reply) => sendText(reply, 200, "ok") }, options);
  registerEndpoint(
    app,
    "/readyz",
    {
      GET: async (request, reply) => {
        const problem = await databaseProblem(store);
        if (problem === undefined) return sendText(reply, 200, "ready");
        // The detail (an address, a role name) is for the operator's log, not for anyone who asks.
        request.log.warn({ problem: problem.detail }, "readiness check failed");
        return sendText(reply, 503, `not ready: ${problem.reason}`);
      },
    },
    options,
  );
}

/** Why the database is not ready: a public reason and the operator's detail. */
export interface DatabaseProblem {
  readonly reason: string;
  readonly detail: string;
}

/** Why the database does not answer, or undefined when it does. */
export async function databaseProblem(
  store: Store,
  timeoutMs = READY_TIMEOUT_MS,
): Promise<DatabaseProblem | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DatabaseProblem>((resolve) => {
    timer = setTimeout(() => {
      const reason = `the database did not answer within ${timeoutMs} ms`;
      resolve({ reason, detail: reason });
    }, timeoutMs);
  });
  // The cheapest query every store has: one row of one table, by its primary key's order.
  const query = store.isEmpty().then(
    () => undefined,
    (error: unknown) => ({ reason: "the database refused a query (see the server log)", detail: oneLine(error) }),
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]?.slice(0, 200) ?? "";
}

function sendText(reply: FastifyReply, status: number, line: string) {
  return reply
    .code(status)
    .header("content-type", "text/plain; charset=utf-8")
    .header("cache-control", "no-store")
    .send(`${line}\n`);
}
