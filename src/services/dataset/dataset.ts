import { hashPassword } from "../../auth/password.js";
import { hashToken } from "../../auth/token.js";
import type { DatasetPlan } from "../../store/queries/dataset.js";
import type { Store } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { insertGeneratedEvents } from "./dataset-events.js";

/** The password of every generated user. */
export const DATASET_PASSWORD = "kairan-bench";

/** Rows per transaction: big enough to amortise the commit, small enough to keep the WAL bounded. */
const TOPIC_CHUNK = 100_000;
const COMMENT_CHUNK = 250_000;

/** The personal token of generated user `userId`: predictable on purpose, so a benchmark can use it. */
export function datasetToken(seed: number, userId: number): string {
  return `gen-${seed}-${userId}`;
}

/** Milliseconds each stage took. */
export type DatasetTimings = Record<
  | "users"
  | "groups"
  | "memberships"
  | "tokens"
  | "topics"
  | "comments"
  | "tasks"
  | "notifications"
  | "events"
  | "analyze",
  number
>;

/**
 * Loads a synthetic dataset into an empty store, every row dated `at`; `progress` hears each
 * finished stage. Only the store is needed: a dataset has no files and a fixed date.
 */
export async function generateDataset(
  ctx: Pick<ServiceContext, "store">,
  input: { plan: DatasetPlan; at: number; progress: (line: string) => void },
): Promise<DatasetTimings> {
  const { store } = ctx;
  const { plan, at, progress } = input;
  const passwordHash = await hashPassword(DATASET_PASSWORD);
  const timed = async (name: keyof DatasetTimings, work: () => Promise<void>): Promise<number> => {
    const started = performance.now();
    await work();
    const ms = Math.round(performance.now() - started);
    progress(`${name}: ${ms} ms`);
    return ms;
  };
  return {
    users: await timed("users", () => store.transaction((tx) => tx.dataset.insertUsers(plan, passwordHash, at))),
    groups: await timed("groups", () => store.transaction((tx) => tx.dataset.insertGroups(plan, at))),
    memberships: await timed("memberships", () => store.transaction((tx) => tx.dataset.insertMemberships(plan, at))),
    tokens: await timed("tokens", () => insertTokens(store, plan, at)),
    topics: await timed("topics", () =>
      inChunks(plan.topics, TOPIC_CHUNK, (from, to) =>
        store.transaction((tx) => tx.dataset.insertTopics(plan, from, to)),
      ),
    ),
    comments: await timed("comments", async () => {
      await inChunks(plan.comments, COMMENT_CHUNK, (from, to) =>
        store.transaction((tx) => tx.dataset.insertComments(plan, from, to)),
      );
      await store.transaction((tx) => tx.dataset.insertCommentCounters());
    }),
    tasks: await timed("tasks", () =>
      inChunks(plan.tasks, TOPIC_CHUNK, (from, to) =>
        store.transaction((tx) => tx.dataset.insertTasks(plan, from, to)),
      ),
    ),
    notifications: await timed("notifications", () => store.transaction((tx) => tx.dataset.insertNotifications(plan))),
    events: await timed("events", () => insertGeneratedEvents(store, plan)),
    // Last: the statistics must describe every table as the server will find it.
    analyze: await timed("analyze", () => store.transaction((tx) => tx.dataset.analyze())),
  };
}

/** An ordinary group and one of its members (not its manager) who is also a member of the big group 1. */
export interface TypicalMember {
  readonly groupId: number;
  readonly userId: number;
}

/**
 * The first ordinary group (2, 3, ...) with such a member, for benchmarks that read the big group
 * and write into an ordinary one with one token; undefined when there is none (a single group).
 */
export async function findTypicalMember(
  ctx: Pick<ServiceContext, "store">,
  plan: DatasetPlan,
): Promise<TypicalMember | undefined> {
  return ctx.store.read(async (tx) => {
    for (let groupId = 2; groupId <= plan.groups; groupId++) {
      const members = await tx.memberships.listMembers(groupId, "JOIN", { offset: 0, limit: plan.membersPerGroup });
      const found = members.find(
        (member) => !member.manager && member.userId !== null && member.userId <= plan.bigGroupMembers,
      );
      if (found?.userId) return { groupId, userId: found.userId };
    }
    return undefined;
  });
}

async function insertTokens(store: Store, plan: DatasetPlan, at: number): Promise<void> {
  await store.transaction(async (tx) => {
    const app = await tx.apps.insert({
      name: "Generated dataset",
      consumerKey: `gen-${plan.seed}`,
      consumerSecret: `gen-secret-${plan.seed}`,
      accessLevel: "Z",
      createdAt: at,
    });
    const rows = Array.from({ length: plan.users }, (_, index) => ({
      userId: index + 1,
      appId: app.id,
      tokenHash: hashToken(datasetToken(plan.seed, index + 1)),
      secret: `gen-ts-${index + 1}`,
      createdAt: at,
    }));
    await tx.dataset.insertTokens(rows);
  });
}

async function inChunks(total: number, size: number, work: (from: number, to: number) => Promise<void>): Promise<void> {
  for (let from = 1; from <= total; from += size) await work(from, Math.min(total, from + size - 1));
}
