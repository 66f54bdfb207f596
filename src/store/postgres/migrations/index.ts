import type { Migration } from "kysely";
import { core } from "./0001-core.js";
import { comments } from "./0002-comments.js";
import { groupware } from "./0003-groupware.js";
import { oauth } from "./0004-oauth.js";
import { notifications } from "./0005-notifications.js";
import { throttle } from "./0006-throttle.js";
import { sessions } from "./0007-sessions.js";
import { notificationLayout } from "./0008-notification-layout.js";
import { changeVersions } from "./0009-change-versions.js";
import { userDisabled } from "./0011-user-disabled.js";

/** PostgreSQL migrations in order: the same numbers and names as the SQLite ones, translated. */
export const postgresMigrations: Readonly<Record<string, Migration>> = {
  "0001-core": core,
  "0002-comments": comments,
  "0003-groupware": groupware,
  "0004-oauth": oauth,
  "0005-notifications": notifications,
  "0006-throttle": throttle,
  "0007-sessions": sessions,
  "0008-notification-layout": notificationLayout,
  "0009-change-versions": changeVersions,
  "0011-user-disabled": userDisabled,
};
