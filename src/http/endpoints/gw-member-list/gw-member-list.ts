import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { memberListFeed } from "../../../present/member.js";
import { getMember, listMembers } from "../../../services/member/member.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { nextChangesHref } from "../../changes-link.js";
import { readMemberQuery } from "./gw-member-list.request.js";

/** `GET /api/gwMemberList/V2`: a group's members or invitations (read only). */
export function registerGwMemberList(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  registerEndpoint(app, "/api/gwMemberList/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readMemberQuery(request.query as QueryValues);
      requireAccess(actor, "read");
      const view =
        input.kind === "one" ? await getMember(context, actor, input) : await listMembers(context, actor, input);
      const changes = nextChangesHref(context.baseUrl(), request, view.changes);
      return sendFeed(reply, memberListFeed(context.baseUrl(), viewerOf(actor), view, clock.now(), changes));
    },
  });
}
