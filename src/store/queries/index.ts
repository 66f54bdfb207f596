import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import type { Tx } from "../store.js";
import { appRepo } from "./apps.js";
import { attachmentRepo } from "./attachments.js";
import { commentReadRepo } from "./comment-reads.js";
import { commentRepo } from "./comments.js";
import { datasetRepo } from "./dataset.js";
import { fileRepo } from "./files.js";
import { folderRepo } from "./folders.js";
import { groupRepo, membershipRepo } from "./groups.js";
import { leaseRepo } from "./leases.js";
import { notificationCountRepo } from "./notification-counts.js";
import { loginFailureRepo } from "./login-failures.js";
import { likeNotificationRepo } from "./like-notifications.js";
import { notificationRepo } from "./notifications.js";
import { sessionRepo } from "./sessions.js";
import { taskRepo } from "./tasks.js";
import { nonceRepo, temporaryCredentialRepo } from "./oauth.js";
import { favoriteRepo, likeRepo } from "./reactions.js";
import { tokenRepo } from "./tokens.js";
import { topicRepo } from "./topics.js";
import { userRepo } from "./users.js";

/** The database engine under the queries: the same SQL on each but for the notification fan-out. */
export type Engine = "sqlite" | "postgres";

/** The repositories over one connection or transaction; identical on every engine but for the notification fan-out. */
export function repositories(db: Kysely<Database>, engine: Engine): Tx {
  return {
    users: userRepo(db),
    apps: appRepo(db),
    tokens: tokenRepo(db),
    sessions: sessionRepo(db),
    notificationCounts: notificationCountRepo(db),
    groups: groupRepo(db),
    memberships: membershipRepo(db),
    folders: folderRepo(db),
    topics: topicRepo(db),
    comments: commentRepo(db),
    leases: leaseRepo(db),
    dataset: datasetRepo(db),
    tasks: taskRepo(db),
    files: fileRepo(db),
    nonces: nonceRepo(db),
    temporaryCredentials: temporaryCredentialRepo(db),
    attachments: attachmentRepo(db),
    likes: likeRepo(db),
    favorites: favoriteRepo(db),
    commentReads: commentReadRepo(db),
    loginFailures: loginFailureRepo(db),
    notifications: notificationRepo(db, engine),
    likeNotifications: likeNotificationRepo(db),
  };
}
