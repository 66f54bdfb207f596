import type { Migration } from "kysely";
import { core } from "./0001-core.js";
import { comments } from "./0002-comments.js";
import { groupware } from "./0003-groupware.js";
import { oauth } from "./0004-oauth.js";
import { notifications } from "./0005-notifications.js";
import { throttle } from "./0006-throttle.js";
import { sessions } from "./0007-sessions.js";
import { notificationLayout } from "./0008-notification-layout.js";
import { changeVersions as postgresChangeVersions } from "./0009-change-versions.postgres.js";
import { changeVersions as sqliteChangeVersions } from "./0009-change-versions.sqlite.js";
import { loginBackoff } from "./0010-login-backoff.js";
import { userDisabled } from "./0011-user-disabled.js";
import { invitationLinks } from "./0012-invitation-links.js";
import { account } from "./0013-account.js";
import { search as postgresSearch } from "./0014-search.postgres.js";
import { search as sqliteSearch } from "./0014-search.sqlite.js";
import { mentions } from "./0015-mentions.js";
import { versionsAtCommit } from "./0016-versions-at-commit.js";
import { chat } from "./0017-chat.js";
import { liveEvents } from "./0018-live-events.js";
import { events } from "./0021-events.js";
import { chatAttachments } from "./0022-chat-attachments.js";
import { personalEvents } from "./0023-personal-events.js";
import { personalTasks } from "./0024-personal-tasks.js";
import { calendarFeeds } from "./0026-calendar-feeds.js";
import { chatLikes } from "./0027-chat-likes.js";
import { eventWindows } from "./0028-event-windows.js";
import { personalEventVersions } from "./0029-personal-event-versions.js";
import { legacySigning } from "./0030-legacy-signing.js";
import { auditLog } from "./0035-audit-log.js";
import { siteSettings } from "./0036-site-settings.js";
import { twoFactor } from "./0038-two-factor.js";
import { oidc } from "./0042-oidc.js";
import { mailRepliesReceived } from "./0040-mail-replies-received.js";
import { passkeys } from "./0041-passkeys.js";
import { groupArchive } from "./0043-group-archive.js";
import { importKeys } from "./0044-import-keys.js";
import { placeholderClaims } from "./0046-placeholder-claims.js";
import { foldersAndSearch } from "./0047-folders-and-search.js";
import { itemVisits } from "./0048-item-visits.js";
import { archiveKeys } from "./0049-archive-keys.js";
import { edits } from "./0050-edits.js";
import { eventAnswers } from "./0051-event-answers.js";
import { webhooks } from "./0052-webhooks.js";
import { incomingHooks } from "./0053-incoming-hooks.js";
import { itemChanges } from "./0054-item-changes.js";
import { eventReminders } from "./0056-event-reminders.js";
import { websub } from "./0057-websub.js";
import { moreItemChanges } from "./0058-more-item-changes.js";
import { chatChanges } from "./0059-chat-changes.js";
import { favoriteChanges } from "./0060-favorite-changes.js";
import { signInDevices } from "./0031-sign-in-devices.js";
import { mailOutbox } from "./0032-mail-outbox.js";
import { accountMail } from "./0033-account-mail.js";
import { notificationMail } from "./0034-notification-mail.js";
import { type Engine, columnTypes } from "./columns.js";

/**
 * One engine's migrations in order; names sort in the order they must run. Both engines have the
 * same names: Kysely records the names it ran, and refuses a list that lacks one of them, so a
 * name never changes once released.
 */
export function migrationsFor(engine: Engine): Readonly<Record<string, Migration>> {
  const t = columnTypes(engine);
  return {
    "0001-core": core(t),
    "0002-comments": comments(t),
    "0003-groupware": groupware(t),
    "0004-oauth": oauth(t),
    "0005-notifications": notifications(t),
    "0006-throttle": throttle(t),
    "0007-sessions": sessions(t),
    "0008-notification-layout": notificationLayout(engine),
    "0009-change-versions": engine === "sqlite" ? sqliteChangeVersions : postgresChangeVersions,
    "0010-login-backoff": loginBackoff(t),
    "0011-user-disabled": userDisabled(t),
    "0012-invitation-links": invitationLinks(),
    "0013-account": account(t),
    "0014-search": engine === "sqlite" ? sqliteSearch : postgresSearch,
    "0015-mentions": mentions(engine),
    "0016-versions-at-commit": versionsAtCommit(engine),
    "0017-chat": chat(t),
    "0018-live-events": liveEvents(t),
    "0021-events": events(engine),
    "0022-chat-attachments": chatAttachments(t),
    "0023-personal-events": personalEvents(t),
    "0024-personal-tasks": personalTasks(t),
    "0026-calendar-feeds": calendarFeeds(t),
    "0027-chat-likes": chatLikes(engine),
    "0028-event-windows": eventWindows(),
    "0029-personal-event-versions": personalEventVersions(engine),
    "0030-legacy-signing": legacySigning(t),
    "0031-sign-in-devices": signInDevices(t),
    "0032-mail-outbox": mailOutbox(t),
    "0033-account-mail": accountMail(t),
    "0034-notification-mail": notificationMail(t),
    "0035-audit-log": auditLog(t),
    "0036-site-settings": siteSettings(t),
    "0038-two-factor": twoFactor(t),
    "0040-mail-replies-received": mailRepliesReceived(t),
    "0041-passkeys": passkeys(t),
    "0042-oidc": oidc(t),
    "0043-group-archive": groupArchive(t),
    "0044-import-keys": importKeys(t),
    "0046-placeholder-claims": placeholderClaims(t),
    "0047-folders-and-search": foldersAndSearch(engine),
    "0048-item-visits": itemVisits(t),
    "0049-archive-keys": archiveKeys(t),
    "0050-edits": edits(t),
    "0051-event-answers": eventAnswers(t),
    "0052-webhooks": webhooks(t),
    "0053-incoming-hooks": incomingHooks(t),
    "0054-item-changes": itemChanges(engine),
    "0056-event-reminders": eventReminders(t),
    "0057-websub": websub(t),
    "0058-more-item-changes": moreItemChanges(engine),
    "0059-chat-changes": chatChanges(engine),
    "0060-favorite-changes": favoriteChanges(engine),
  };
}
