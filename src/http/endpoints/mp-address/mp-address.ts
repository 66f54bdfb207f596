import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { addressBookFeed } from "../../../present/address-book.js";
import { listAddressBook } from "../../../services/account/address-book.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import { type QueryValues, queryValue } from "../../../http-kit/query.js";
import { readPage } from "../../../http-kit/parameters.js";
import { registerEndpoint } from "../../../http-kit/route.js";

/** `GET /api/mpAddress/V2`: the people who share a group with the caller (docs/api.md "Address book"). `read` level. */
export function registerMpAddress(app: FastifyInstance, context: Context): void {
  registerEndpoint(app, "/api/mpAddress/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const query = request.query as QueryValues;
      const input = { name: queryValue(query, "name")?.trim(), page: readPage(query) };
      requireAccess(actor, "read");
      const people = await listAddressBook(context, actor, input);
      return sendFeed(reply, addressBookFeed(context.baseUrl(), viewerOf(actor), people, context.clock.now()));
    },
  });
}
