import { loadConfig } from "../config/config.js";
import { DATASET_PASSWORD, findTypicalMember, generateDataset } from "../services/dataset/dataset.js";
import { parsePlainDate } from "../domain/event-time.js";
import { openStore } from "../store/open.js";
import type { CommandIo } from "./io.js";
import { SERVER_OPTIONS, UsageError, configFlags, parseCommand, commandOptionsHelp } from "./options.js";
import type { DatasetPlan } from "../store/queries/dataset.js";

/**
 * Each member's window of notifications per group and kind. A real server keeps every notification
 * (one per member and item), which at 1,000,000 topics would be billions of rows. 50 newest topics
 * and 50 newest tasks per group give a member of the big group and of one or two ordinary groups a
 * few hundred notifications (several pages, half unconfirmed) and keep --full's notifications
 * stage near 15 s; a page costs the same whatever the count (the user's index is ordered by time).
 */
const DEFAULT_NOTIFICATION_TOPICS = 50;

/** Usage of `kairan generate`. */
export const GENERATE_HELP = `Usage: kairan generate [options]

Fills an EMPTY database with a synthetic, reproducible dataset for load benchmarks, and prints
a JSON summary (counts, stage timings, how to authenticate, and "typical": an ordinary group and
a member of it who is also in group 1). On PostgreSQL it ends with ANALYZE, so the first
queries are planned with statistics. Group 1 is the big group: users 1..--big-members are its
members and it holds the first --big-topics topics; the other groups get --members-per-group
members each and share the remaining topics. Comments are spread evenly over all topics, tasks
evenly over all groups. Every user gets the personal token gen-<seed>-<user id> (password
"${DATASET_PASSWORD}"): predictable on purpose, so never run this against real data.

  --users N              users (default 2000)
  --groups N             groups (default 100)
  --big-members N        members of group 1 (default min(5000, users))
  --members-per-group N  members of each other group (default min(20, users))
  --topics N             topics (default 20000)
  --big-topics N         topics in group 1 (default half of --topics)
  --comments N           comments (default 5 x topics)
  --tasks N              tasks (default topics / 10)
  --notification-topics N
                         notifications: every member has one of each of the N newest topics
                         of their groups that they did not write, counting its comments, and
                         one of each of the N newest tasks; about half are confirmed
                         (default ${DEFAULT_NOTIFICATION_TOPICS}; 0 for none)
  --events N             group events (default 0): every fifth repeats (daily, weekly or
                         monthly; by COUNT, UNTIL or open-ended; a fifth of those with one
                         occurrence cancelled), about 15% all-day, 30% with participants,
                         in three time zones, starting within half a year of --events-around
  --big-events N         events in group 1; the rest round-robin over the other groups
                         (default: an even share, ceil(events / groups))
  --events-around DATE   YYYY-MM-DD the events are spread around (default: today, UTC)
  --seed S               seed of the pseudo-random choices (default 1)
  The issue's full scale: --users 10000 --groups 1000 --big-members 5000 --topics 1000000 --comments 5000000

${commandOptionsHelp()}`;

const GENERATE_OPTIONS = {
  ...SERVER_OPTIONS,
  users: { type: "string" },
  groups: { type: "string" },
  "big-members": { type: "string" },
  "members-per-group": { type: "string" },
  topics: { type: "string" },
  "big-topics": { type: "string" },
  comments: { type: "string" },
  tasks: { type: "string" },
  "notification-topics": { type: "string" },
  events: { type: "string" },
  "big-events": { type: "string" },
  "events-around": { type: "string" },
  seed: { type: "string" },
} as const;

const DAY_MS = 86_400_000;
/** Half a year inside the years events may have (1900..2100, domain/event-time.ts). */
const EARLIEST_AROUND = Date.UTC(1901, 0, 1);
const LATEST_AROUND = Date.UTC(2099, 11, 31);

/** A fixed start time, so that the same seed gives the same bytes. */
const START_AT = Date.parse("2025-01-01T00:00:00Z");

/** `kairan generate`. @throws UsageError, ConfigError */
export async function generate(args: readonly string[], io: CommandIo): Promise<void> {
  const { values, positionals } = parseCommand(args, GENERATE_OPTIONS);
  if (values.help) return io.out(GENERATE_HELP);
  if (positionals.length > 0) throw new UsageError("kairan generate takes no positional arguments");
  const plan = planOf(values, Date.now());
  const config = loadConfig({ ...configFlags(values), noDemo: true }, io.env);
  const store = await openStore(config.store);
  try {
    await store.migrate();
    if (!(await store.isEmpty()))
      throw new UsageError("the database is not empty: kairan generate only fills a new one");
    const started = performance.now();
    const timings = await generateDataset({ store }, { plan, at: START_AT, progress: (line) => io.err(line) });
    const totalMs = Math.round(performance.now() - started);
    const typical = await findTypicalMember({ store }, plan);
    io.out(JSON.stringify({ plan, timings, totalMs, token: `gen-${plan.seed}-<user id>`, bigGroup: "1:1", typical }));
  } finally {
    await store.close();
  }
}

/** Reads and checks the numbers; every mistake is a usage error. `now` gives --events-around's default. */
export function planOf(values: Record<string, string | boolean | undefined>, now: number): DatasetPlan {
  const num = (name: string, fallback: number, min: number, max = 100_000_000): number => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (typeof raw !== "string" || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
    }
    return value;
  };
  const users = num("users", 2000, 1);
  const groups = num("groups", 100, 1, 1_000_000);
  const topics = num("topics", 20_000, 0);
  const events = num("events", 0, 0, 10_000_000);
  const plan: DatasetPlan = {
    seed: num("seed", 1, 0, 1_000_000),
    users,
    groups,
    bigGroupMembers: num("big-members", Math.min(5000, users), 1, users),
    membersPerGroup: num("members-per-group", Math.min(20, users), 1, users),
    topics,
    bigGroupTopics: num("big-topics", groups === 1 ? topics : Math.floor(topics / 2), 0, topics),
    comments: num("comments", 5 * topics, 0),
    tasks: num("tasks", Math.floor(topics / 10), 0),
    notificationTopics: num("notification-topics", DEFAULT_NOTIFICATION_TOPICS, 0, 1_000_000),
    startAt: START_AT,
    events,
    bigGroupEvents: num("big-events", Math.ceil(events / groups), 0, events),
    eventsAround: dayOf(values["events-around"], now),
  };
  if (plan.comments > 0 && plan.topics === 0) throw new UsageError("--comments needs at least one topic");
  if (plan.groups === 1 && plan.bigGroupTopics < plan.topics)
    throw new UsageError("with one group, --big-topics must equal --topics");
  if (plan.groups === 1 && plan.bigGroupEvents < plan.events)
    throw new UsageError("with one group, --big-events must equal --events");
  return plan;
}

/** --events-around: a date, midnight UTC of it; absent, today's. */
function dayOf(raw: string | boolean | undefined, now: number): number {
  if (raw === undefined) return Math.floor(now / DAY_MS) * DAY_MS;
  const at = typeof raw === "string" ? parsePlainDate(raw) : undefined;
  if (at === undefined || at < EARLIEST_AROUND || at > LATEST_AROUND)
    throw new UsageError("--events-around must be a date YYYY-MM-DD from 1901-01-01 to 2099-12-31");
  return at;
}
