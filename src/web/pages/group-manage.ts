// Running groups in the browser: a new group (`/groups/new`), renaming and describing one
// (`/g/1:n/edit`, managers), leaving one (`/g/1:n/leave`), and answering an invitation from the
// home page (`/invitations/1:m/accept`, `.../decline`).
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import type { Group } from "../../domain/group.js";
import { formatPair } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import { createGroup, leaveGroup, readGroupForManager, updateGroup } from "../../services/group/group-manage.js";
import { acceptInvitation, declineInvitation } from "../../services/member/invitation.js";
import { errorText } from "../i18n/i18n.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";

interface GroupValues {
  readonly name: string;
  readonly summary: string;
  /** The edit form's folder setting (a new group starts with managers only). */
  readonly membersManageFolders: boolean;
}

/** The group-running routes. */
export function registerGroupManagePages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/groups/new", {
    GET: async (page) => groupForm(page, undefined, { name: "", summary: "", membersManageFolders: false }),
    async POST(page) {
      const values = groupValues(page);
      return withFormError(page, values, undefined, async () => {
        const group = await createGroup(web, page.actor, { name: values.name, summary: values.summary });
        return page.redirect(`/g/${formatPair(group.id)}/members`);
      });
    },
  });
  registerPage(app, web, "/g/:group/edit", {
    async GET(page) {
      const group = await readGroupForManager(web, page.actor, { groupId: pathPair(page, "group") });
      return groupForm(page, group, {
        name: group.name,
        summary: group.summary,
        membersManageFolders: group.membersManageFolders,
      });
    },
    async POST(page) {
      const groupId = pathPair(page, "group");
      const values = groupValues(page);
      // Read first: a non-manager meets MANAGER_REQUIRED before their form's problems.
      const group = await readGroupForManager(web, page.actor, { groupId });
      return withFormError(page, values, group, async () => {
        await updateGroup(web, page.actor, { groupId, ...values });
        return page.redirect(`/g/${formatPair(groupId)}/members?saved=1`);
      });
    },
  });
  registerPage(app, web, "/g/:group/leave", {
    async POST(page) {
      await leaveGroup(web, page.actor, { groupId: pathPair(page, "group") });
      return page.redirect("/?left=1");
    },
  });
  registerPage(app, web, "/invitations/:member/accept", {
    async POST(page) {
      const invitation = await acceptInvitation(web, page.actor, { memberId: pathPair(page, "member") });
      return page.redirect(`/g/${formatPair(invitation.groupId)}/board`);
    },
  });
  registerPage(app, web, "/invitations/:member/decline", {
    async POST(page) {
      await declineInvitation(web, page.actor, { memberId: pathPair(page, "member") });
      return page.redirect("/");
    },
  });
}

function groupValues(page: PageRequest): GroupValues {
  return {
    name: page.form.get("name") ?? "",
    summary: page.form.get("summary") ?? "",
    membersManageFolders: page.form.get("membersManageFolders") === "true",
  };
}

/** Runs a form's write; a refused value shows the same form again with the problem (400). */
async function withFormError(
  page: PageRequest,
  values: GroupValues,
  group: Group | undefined,
  write: () => Promise<ReturnType<PageRequest["redirect"]>>,
) {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return groupForm(page, group, values, errorText(page.chrome.lang, error.code, error.message));
  }
}

/** The new-group form (no group yet) or a group's edit form. */
function groupForm(page: PageRequest, group: Group | undefined, values: GroupValues, error?: string) {
  const heading = page.chrome.t(group ? "groupForm.editTitle" : "groupForm.newTitle");
  return page.render(
    "group-form",
    {
      title: group ? `${heading} · ${group.name}` : heading,
      heading,
      section: group ? undefined : "groups",
      group,
      area: group ? "members" : undefined,
      action: page.chrome.u(group ? `/g/${formatPair(group.id)}/edit` : "/groups/new"),
      cancelHref: page.chrome.u(group ? `/g/${formatPair(group.id)}/members` : "/"),
      values,
      limits: { name: LIMITS.groupNameMaxChars, summary: LIMITS.groupSummaryMaxChars },
      error,
      isNew: group === undefined,
    },
    error === undefined ? 200 : 400,
  );
}
