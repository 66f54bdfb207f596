// The web interface: every page, its static files and its downloads, in one encapsulated
// plugin with its own cookie parser and HTML error pages.
import fastifyCookie from "@fastify/cookie";
import type { FastifyInstance } from "fastify";
import type { Context } from "../context.js";
import { loadAssets } from "./assets.js";
import { registerAccountPages } from "./pages/account.js";
import { registerAdminPages } from "./pages/admin.js";
import { webErrorHandler } from "./errors.js";
import type { WebContext } from "./page.js";
import { registerAuthPages } from "./pages/auth.js";
import { registerOidcPages } from "./pages/oidc.js";
import { registerBoardPages } from "./pages/board.js";
import { registerAddressBookPage } from "./pages/address-book.js";
import { registerCalendarPages } from "./pages/calendar.js";
import { registerChatPages } from "./pages/chat.js";
import { registerEventEditPages } from "./pages/event-edit.js";
import { registerEventListPages } from "./pages/event-lists.js";
import { registerFolderPages } from "./pages/folders.js";
import { registerGroupHookPages, registerRoomHookPages } from "./pages/group-hooks.js";
import { registerEventPage } from "./pages/event-view.js";
import { registerMyEventPages } from "./pages/my-event.js";
import { registerDownload } from "./pages/download.js";
import { registerFavoritesPage } from "./pages/favorites.js";
import { registerTodoPages } from "./pages/todo.js";
import { registerFilePages } from "./pages/files.js";
import { registerGroupPages } from "./pages/groups.js";
import { registerGroupManagePages } from "./pages/group-manage.js";
import { registerGroupAuditPage } from "./pages/group-audit.js";
import { registerWebhookPages } from "./pages/webhooks.js";
import { registerMemberManagePages } from "./pages/member-manage.js";
import { registerSignupPages } from "./pages/signup.js";
import { registerPasswordResetPages } from "./pages/password-reset.js";
import { registerAddressChangePages } from "./pages/address-change.js";
import { registerSetupPages } from "./pages/setup.js";
import { registerItemActions } from "./pages/item-actions.js";
import { registerMemberPages } from "./pages/members.js";
import { registerMentionSuggestions } from "./pages/mentions.js";
import { registerPreview } from "./pages/preview.js";
import { registerNotificationPages } from "./pages/notifications.js";
import { registerUnreadPages } from "./pages/unread.js";
import { registerZoneOffer } from "./pages/zone-offer.js";
import { registerSettingsPages } from "./pages/settings.js";
import { registerSearchPages } from "./pages/search.js";
import { registerStatic } from "./pages/static.js";
import { registerTaskPages } from "./pages/tasks.js";
import { registerListExports } from "./pages/list-export.js";
import { registerGroupArchive } from "./pages/group-archive.js";
import { registerTaskEditPages } from "./pages/task-edit.js";
import { registerTopicEditPages } from "./pages/topic-edit.js";
import { registerTopicPlacePages } from "./pages/topic-place.js";
import { registerTwoFactorPages } from "./pages/two-factor.js";
import { registerPasskeySignIn } from "./pages/passkey-sign-in.js";
import { registerUnsubscribePages } from "./pages/unsubscribe.js";

/** Registers the web interface on `app`; returns its context (the not-found page needs it). */
export function registerWeb(app: FastifyInstance, context: Context): WebContext {
  const web: WebContext = { ...context, assets: loadAssets() };
  app.register(async (scope) => {
    await scope.register(fastifyCookie);
    scope.setErrorHandler(webErrorHandler(web));
    registerStatic(scope, web);
    registerAuthPages(scope, web);
    // Single sign-on with OpenID Connect (issue #30).
    registerOidcPages(scope, web);
    registerPasskeySignIn(scope, web);
    registerGroupPages(scope, web);
    // Folders before the item pages: `/board/folders` is not a topic id (issue 31).
    registerFolderPages(scope, web);
    registerGroupHookPages(scope, web);
    registerRoomHookPages(scope, web);
    registerBoardPages(scope, web);
    registerTopicEditPages(scope, web);
    registerTopicPlacePages(scope, web);
    // The lists' downloads before the item pages (issue #32).
    registerListExports(scope, web);
    registerGroupArchive(scope, web);
    registerTaskPages(scope, web);
    registerTaskEditPages(scope, web);
    registerFilePages(scope, web);
    // Member actions before the member pages: `/members/invite` is not a member id.
    registerMemberManagePages(scope, web);
    registerMemberPages(scope, web);
    registerGroupManagePages(scope, web);
    registerGroupAuditPage(scope, web);
    registerWebhookPages(scope, web);
    registerSignupPages(scope, web);
    registerMentionSuggestions(scope, web);
    registerPreview(scope, web);
    registerItemActions(scope, web);
    registerFavoritesPage(scope, web);
    registerTodoPages(scope, web);
    registerNotificationPages(scope, web);
    // The header's counts and "mark all read" (issue #31).
    registerUnreadPages(scope, web);
    // The browser's time zone offered (issue #31).
    registerZoneOffer(scope, web);
    registerSettingsPages(scope, web);
    registerAccountPages(scope, web);
    registerDownload(scope, web);
    registerSearchPages(scope, web);
    // Chat (issue #21).
    registerChatPages(scope, web);
    registerAddressBookPage(scope, web);
    // The calendars and events (issue #20).
    registerCalendarPages(scope, web);
    registerEventEditPages(scope, web);
    registerEventListPages(scope, web);
    registerEventPage(scope, web);
    registerMyEventPages(scope, web);
    // Accounts by mail (issue #29).
    registerPasswordResetPages(scope, web);
    registerAddressChangePages(scope, web);
    registerSetupPages(scope, web);
    // Notification mail's one-click unsubscribe (issue #29).
    registerUnsubscribePages(scope, web);
    // Two-factor sign-in (issue #30).
    registerTwoFactorPages(scope, web);
    // The site's administration (issue #30).
    registerAdminPages(scope, web);
  });
  return web;
}
