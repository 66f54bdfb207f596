import { personalTaskProblems } from "./personal-tasks.js";
import { resolveEventDraft } from "../domain/event-draft.js";
import { requireEventZone } from "../domain/event-time.js";
import { checkFileName } from "../domain/file.js";
import { chatRoomProblems } from "./chat.js";
import { personalEventProblems } from "./personal-events.js";
import { draftInput } from "./load-events.js";
import { type Seed, seedSchema } from "./schema.js";

/** A seed file that cannot be loaded: every problem, each with its path in the file. */
export class SeedError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join("\n"));
    this.name = "SeedError";
  }
}

/** `["groups", 0, "tasks", 2, "due"]` -> `groups[0].tasks[2].due`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    "",
  );
}

/**
 * Checks shape, then every reference (authors, members, folders, tokens) and uniqueness of refs,
 * so that nothing is written from a file that would fail half-way.
 * @throws SeedError
 */
export function validateSeed(input: unknown): Seed {
  const parsed = seedSchema.safeParse(input);
  if (!parsed.success) {
    throw new SeedError(parsed.error.issues.map((issue) => `${formatPath(issue.path) || "(file)"}: ${issue.message}`));
  }
  const problems = referenceProblems(parsed.data);
  if (problems.length > 0) throw new SeedError(problems);
  return parsed.data;
}

function referenceProblems(seed: Seed): string[] {
  const problems: string[] = [];
  const users = uniqueRefs(seed.users, "users", problems);
  const apps = uniqueRefs(seed.apps, "apps", problems);
  uniqueRefs(seed.chatRooms, "chatRooms", problems);
  problems.push(...chatRoomProblems(seed.chatRooms, users));
  problems.push(...personalEventProblems(seed.personalEvents, users));
  uniqueRefs(seed.personalTasks, "personalTasks", problems);
  problems.push(...personalTaskProblems(seed.personalTasks, users));
  const need = (known: ReadonlySet<string>, value: string | undefined, path: string, what: string) => {
    if (value !== undefined && !known.has(value)) problems.push(`${path}: no ${what} with ref "${value}"`);
  };
  uniqueValues(
    seed.users.map((u) => u.email.toLowerCase()),
    "users",
    "email",
    problems,
  );
  uniqueValues(
    seed.apps.map((a) => a.consumerKey),
    "apps",
    "consumerKey",
    problems,
  );
  uniqueValues(
    seed.tokens.map((t) => t.token),
    "tokens",
    "token",
    problems,
  );
  seed.tokens.forEach((t, i) => {
    need(users, t.user, `tokens[${i}].user`, "user");
    need(apps, t.app, `tokens[${i}].app`, "app");
  });
  uniqueRefs(seed.groups, "groups", problems);
  seed.groups.forEach((g, gi) => {
    const at = `groups[${gi}]`;
    const members = new Set(g.members.map((m) => m.user));
    g.members.forEach((m, i) => need(users, m.user, `${at}.members[${i}].user`, "user"));
    uniqueValues(
      g.members.map((m) => m.user),
      at,
      "members user",
      problems,
    );
    const folders = uniqueRefs(g.boardFolders, `${at}.boardFolders`, problems);
    uniqueRefs(g.topics, `${at}.topics`, problems);
    groupwareProblems(g, at, members, problems);
    g.topics.forEach((t, ti) => {
      need(members, t.author, `${at}.topics[${ti}].author`, "member of this group");
      need(folders, t.folder, `${at}.topics[${ti}].folder`, "board folder");
      t.comments.forEach((c, ci) => {
        need(members, c.author, `${at}.topics[${ti}].comments[${ci}].author`, "member of this group");
        if (c.replyTo !== null && c.replyTo > ci) {
          problems.push(`${at}.topics[${ti}].comments[${ci}].replyTo: must name an earlier comment (1-${ci})`);
        }
      });
    });
  });
  return problems;
}

function groupwareProblems(
  g: Seed["groups"][number],
  at: string,
  members: ReadonlySet<string>,
  problems: string[],
): void {
  const need = (known: ReadonlySet<string>, value: string | undefined, path: string, what: string) => {
    if (value !== undefined && !known.has(value)) problems.push(`${path}: no ${what} with ref "${value}"`);
  };
  const taskFolders = uniqueRefs(g.taskFolders, `${at}.taskFolders`, problems);
  uniqueRefs(g.tasks, `${at}.tasks`, problems);
  g.tasks.forEach((t, i) => {
    need(members, t.author, `${at}.tasks[${i}].author`, "member of this group");
    need(members, t.assignee, `${at}.tasks[${i}].assignee`, "member of this group");
    need(taskFolders, t.folder, `${at}.tasks[${i}].folder`, "task folder");
  });
  eventProblems(g, at, members, problems);
  const cabinetFolders = uniqueRefs(g.cabinetFolders, `${at}.cabinetFolders`, problems);
  uniqueRefs(g.files, `${at}.files`, problems);
  g.files.forEach((f, i) => {
    need(members, f.author, `${at}.files[${i}].author`, "member of this group");
    need(cabinetFolders, f.folder, `${at}.files[${i}].folder`, "cabinet folder");
    f.versions.forEach((v, vi) => {
      need(members, v.author, `${at}.files[${i}].versions[${vi}].author`, "member of this group");
      try {
        checkFileName(v.fileName);
      } catch (error) {
        problems.push(`${at}.files[${i}].versions[${vi}].fileName: ${(error as Error).message}`);
      }
    });
  });
}

function eventProblems(g: Seed["groups"][number], at: string, members: ReadonlySet<string>, problems: string[]): void {
  const need = (known: ReadonlySet<string>, value: string | undefined, path: string, what: string) => {
    if (value !== undefined && !known.has(value)) problems.push(`${path}: no ${what} with ref "${value}"`);
  };
  const menus = uniqueRefs(g.eventMenus, `${at}.eventMenus`, problems);
  const facilities = uniqueRefs(g.facilities, `${at}.facilities`, problems);
  uniqueRefs(g.events, `${at}.events`, problems);
  g.events.forEach((e, i) => {
    need(members, e.creator, `${at}.events[${i}].creator`, "member of this group");
    need(menus, e.menu, `${at}.events[${i}].menu`, "event menu");
    e.participants.forEach((p, pi) =>
      need(members, p, `${at}.events[${i}].participants[${pi}]`, "member of this group"),
    );
    e.facilities.forEach((f, fi) => need(facilities, f, `${at}.events[${i}].facilities[${fi}]`, "facility"));
    try {
      resolveEventDraft(draftInput(e, [], [], null), requireEventZone(e.timeZone ?? "UTC"));
    } catch (error) {
      problems.push(`${at}.events[${i}]: ${(error as Error).message}`);
    }
  });
}

function uniqueRefs(items: readonly { ref: string }[], path: string, problems: string[]): Set<string> {
  uniqueValues(
    items.map((item) => item.ref),
    path,
    "ref",
    problems,
  );
  return new Set(items.map((item) => item.ref));
}

function uniqueValues(values: readonly string[], path: string, field: string, problems: string[]): void {
  const seen = new Set<string>();
  values.forEach((value, i) => {
    if (seen.has(value)) problems.push(`${path}[${i}].${field.split(" ")[0]}: "${value}" appears twice`);
    seen.add(value);
  });
}
