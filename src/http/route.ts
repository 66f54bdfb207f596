import type { FastifyInstance, RouteHandlerMethod } from "fastify";
import { MethodNotAllowedError } from "../domain/errors.js";

/** The methods an endpoint answers; every other one is a 405 with an `Allow` header. */
export type EndpointHandlers = Partial<Record<"GET" | "POST", RouteHandlerMethod>>;

const OTHER_METHODS = ["PUT", "DELETE", "PATCH", "OPTIONS"] as const;

/** Registers an API endpoint's handlers, and 405 for the methods it does not have. */
export function registerEndpoint(app: FastifyInstance, url: string, handlers: EndpointHandlers): void {
  const allowed = Object.keys(handlers);
  for (const [method, handler] of Object.entries(handlers)) app.route({ method, url, handler });
  const refused = [...OTHER_METHODS, ...(["GET", "POST"] as const).filter((method) => !(method in handlers))];
  app.route({
    method: refused,
    url,
    handler: async (request, reply) => {
      reply.header("allow", allowed.join(", "));
      throw new MethodNotAllowedError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here; use ${allowed.join(" or ")}.`);
    },
  });
}
