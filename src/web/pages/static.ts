import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http-kit/route.js";
import type { WebContext } from "../page.js";
import { pageNotFound } from "../page.js";

/**
 * `/static/app.css` and `/static/app.js`. The pages ask for `?v=<version>`: that address never
 * changes content, so it is cached for good; any other (the OAuth pages, an old version) is
 * revalidated.
 */
export function registerStatic(app: FastifyInstance, web: WebContext): void {
  registerEndpoint(app, "/static/:name", {
    async GET(request, reply) {
      const asset = web.assets.files.get((request.params as { name: string }).name);
      if (!asset) throw pageNotFound();
      return reply
        .code(200)
        .header("content-type", asset.contentType)
        .header(
          "cache-control",
          (request.query as { v?: string }).v === web.assets.version
            ? "public, max-age=31536000, immutable"
            : "no-cache",
        )
        .header("x-content-type-options", "nosniff")
        .send(asset.body);
    },
  });
}
