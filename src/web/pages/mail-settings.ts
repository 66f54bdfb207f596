// The forms of notification mail for signed-in people: the settings page's section (mode, digest
// hour, personal mail; a group's switch) and the group's member page (that group's switch).
import type { FastifyInstance } from "fastify";
import { parseGroupMail } from "../../domain/mail-settings.js";
import { formatPair, parsePair } from "../../domain/item-id.js";
import { saveMailSettings, setGroupMail } from "../../services/mail-notify/mail-settings.js";
import { type WebContext, pageNotFound, pathPair, registerPage } from "../page.js";

/** `/settings/mail`, `/settings/group-mail` and `/g/:group/mail`. */
export function registerMailSettingsForms(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/settings/mail", {
    async POST(page) {
      await saveMailSettings(web, page.actor, {
        mode: page.form.get("mode") ?? "",
        digestHour: page.form.get("digestHour") ?? "",
        personal: page.form.get("personal") === "on",
      });
      return page.redirect("/settings?mail=saved#mail");
    },
  });
  registerPage(app, web, "/settings/group-mail", {
    async POST(page) {
      const groupId = parsePair(page.form.get("group") ?? "");
      if (groupId === undefined) throw pageNotFound();
      await setGroupMail(web, page.actor, { groupId, mail: parseGroupMail(page.form.get("mail") ?? "") });
      return page.redirect("/settings?mail=saved#mail-groups");
    },
  });
  registerPage(app, web, "/g/:group/mail", {
    async POST(page) {
      const groupId = pathPair(page, "group");
      await setGroupMail(web, page.actor, { groupId, mail: parseGroupMail(page.form.get("mail") ?? "") });
      return page.redirect(`/g/${formatPair(groupId)}/members?mail=saved#mail`);
    },
  });
}
