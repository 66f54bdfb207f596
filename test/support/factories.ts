import { hashToken } from "../../src/auth/token.js";
import type { AccessLevel } from "../../src/domain/access.js";
import type { FolderArea } from "../../src/domain/folder.js";
import type { Comment } from "../../src/domain/comment.js";
import type { ContentRef } from "../../src/domain/item-id.js";
import type { Group } from "../../src/domain/group.js";
import type { Task } from "../../src/domain/task.js";
import type { Topic } from "../../src/domain/topic.js";
import type { User } from "../../src/domain/user.js";
import type { Store } from "../../src/store/store.js";
import type { TestClock } from "./clock.js";
import type { NewTask } from "../../src/store/queries/tasks.js";

/** A user with a working Bearer token through an application of the given level. */
export interface TestUser extends User {
  readonly token: string;
  readonly tokenSecret: string;
  /** The application the token was issued through, with its secret (for OAuth signing). */
  readonly consumer: TestConsumer;
}

/** A registered application as a client holds it. */
export interface TestConsumer {
  readonly id: number;
  readonly key: string;
  readonly secret: string;
}

/** A precomputed scrypt hash of "password", so factories stay fast (hashing is slow by design). */
export const PASSWORD = "password";
const PASSWORD_HASH = "scrypt$32768$8$1$YPNaNHCEFhvsneR78FSS7A==$UJH2BgCDKj8rYrX/9kLs25cCtAGmYKSlJUYXP4EQcUA=";

let sequence = 0;

/** Builders for test data; each creates what it needs (a user, an application, a group) when not given. */
export class Factories {
  constructor(
    private readonly store: Store,
    private readonly clock: TestClock,
  ) {}

  /** A user with a personal token of an application at `level` (default Z). */
  async user(
    options: { name?: string; email?: string; level?: AccessLevel; passwordHash?: string } = {},
  ): Promise<TestUser> {
    const n = ++sequence;
    const token = `token-${n}-${Math.random().toString(36).slice(2)}`;
    return this.store.transaction(async (tx) => {
      const user = await tx.users.insert({
        name: options.name ?? `User ${n}`,
        email: options.email ?? `user${n}@example.com`,
        familyKana: "",
        givenKana: "",
        passwordHash: options.passwordHash ?? PASSWORD_HASH,
        createdAt: this.clock.now(),
      });
      const app = await tx.apps.insert({
        name: `App ${n}`,
        consumerKey: `key-${n}`,
        consumerSecret: `secret-${n}`,
        accessLevel: options.level ?? "Z",
        createdAt: this.clock.now(),
      });
      await tx.tokens.insert({
        userId: user.id,
        appId: app.id,
        tokenHash: hashToken(token),
        secret: `ts-${n}`,
        label: "",
        createdAt: this.clock.now(),
      });
      return {
        ...user,
        token,
        tokenSecret: `ts-${n}`,
        consumer: { id: app.id, key: app.consumerKey, secret: `secret-${n}` },
      };
    });
  }

  /** The same user through another application, at `level`: a second personal token. */
  async sameUserAt(user: TestUser, level: AccessLevel): Promise<TestUser> {
    const consumer = await this.app(level);
    const n = ++sequence;
    const token = `token-${n}-${Math.random().toString(36).slice(2)}`;
    await this.store.transaction((tx) =>
      tx.tokens.insert({
        userId: user.id,
        appId: consumer.id,
        tokenHash: hashToken(token),
        secret: `ts-${n}`,
        label: "",
        createdAt: this.clock.now(),
      }),
    );
    return { ...user, token, tokenSecret: `ts-${n}`, consumer };
  }

  /** An application with no tokens (for OAuth flows). */
  async app(level: AccessLevel = "Z", name = `App ${++sequence}`): Promise<TestConsumer> {
    const n = ++sequence;
    const secret = `app-secret-${n}/+&=`;
    const app = await this.store.transaction((tx) =>
      tx.apps.insert({
        name,
        consumerKey: `app-key-${n}`,
        consumerSecret: secret,
        accessLevel: level,
        createdAt: this.clock.now(),
      }),
    );
    return { id: app.id, key: app.consumerKey, secret };
  }

  /** A group whose members are `members` (the first one a manager unless `managers` says otherwise). */
  async group(members: readonly User[], options: { name?: string; managers?: readonly User[] } = {}): Promise<Group> {
    const managers = new Set((options.managers ?? members.slice(0, 1)).map((user) => user.id));
    return this.store.transaction(async (tx) => {
      const group = await tx.groups.insert({
        name: options.name ?? `Group ${++sequence}`,
        summary: "",
        createdAt: this.clock.now(),
      });
      for (const member of members) {
        await tx.memberships.insertJoined({
          groupId: group.id,
          userId: member.id,
          manager: managers.has(member.id),
          notify: true,
          createdAt: this.clock.now(),
        });
      }
      return group;
    });
  }

  /** A board folder. */
  async boardFolder(group: Group, name = `Folder ${++sequence}`): Promise<number> {
    return this.folder(group, "BOARD", name);
  }

  /** A folder of any area. */
  async folder(group: Group, area: FolderArea, name = `Folder ${++sequence}`): Promise<number> {
    const folder = await this.store.transaction((tx) =>
      tx.folders.insert({ groupId: group.id, area, name, createdAt: this.clock.now() }),
    );
    return folder.id;
  }

  /** A task written by `author` in `group` (not started, priority B, no due date unless given). */
  async task(
    group: Group,
    author: User,
    options: Partial<Omit<NewTask, "groupId" | "authorId" | "at">> = {},
  ): Promise<Task> {
    return this.store.transaction((tx) =>
      tx.tasks.insert({
        groupId: group.id,
        title: `Task ${++sequence}`,
        body: "",
        assigneeId: null,
        dueAt: null,
        allDay: false,
        priority: "B",
        status: "NOT_STARTED",
        folderId: null,
        trashed: false,
        ...options,
        authorId: author.id,
        at: this.clock.now(),
      }),
    );
  }

  /** A topic written by `author` in `group`. */
  async topic(
    group: Group,
    author: User,
    options: Partial<Pick<Topic, "title" | "body" | "folderId" | "allowEdit" | "fastNotify" | "trashed">> = {},
  ): Promise<Topic> {
    return this.store.transaction((tx) =>
      tx.topics.insert({
        groupId: group.id,
        title: options.title ?? `Topic ${++sequence}`,
        body: options.body ?? "",
        authorId: author.id,
        folderId: options.folderId ?? null,
        allowEdit: options.allowEdit ?? false,
        fastNotify: options.fastNotify ?? false,
        trashed: options.trashed ?? false,
        at: this.clock.now(),
      }),
    );
  }

  /** A comment by `author` on a topic (numbered as the service numbers them). */
  async comment(topic: Topic, author: User, options: { body?: string; replyTo?: number } = {}): Promise<Comment> {
    const parent: ContentRef = { kind: "BOARD", groupId: topic.groupId, id: topic.id };
    return this.store.transaction(async (tx) =>
      tx.comments.insert({
        parent,
        number: await tx.comments.nextNumber(parent),
        authorId: author.id,
        body: options.body ?? `Comment ${++sequence}`,
        replyTo: options.replyTo ?? null,
        at: this.clock.now(),
      }),
    );
  }
}
