import type { ScenarioInputs } from "./scenarios.js";

/** The part of `kairan generate`'s summary the bench reads. */
export interface GenerateSummary {
  readonly plan: {
    readonly seed: number;
    readonly bigGroupTopics: number;
    readonly bigGroupMembers: number;
    readonly membersPerGroup: number;
  };
  readonly timings: Record<string, number>;
  readonly totalMs: number;
  /** An ordinary group and a member of it who is also in group 1. */
  readonly typical?: { readonly groupId: number; readonly userId: number };
}

/** What the bench learns from the running server before the load runs. */
export interface Discovered {
  readonly inputs: ScenarioInputs;
  /** The big group's board page, for the baseline to serve the same bytes. */
  readonly board: { readonly body: Buffer; readonly headers: Record<string, string> };
  readonly userId: number;
  /** How many notifications the bench's user has. */
  readonly notifications: number;
}

const PAGE_HEADERS = ["content-type", "etag", "last-modified", "cache-control", "vary"];

/** Reads the pages the scenarios depend on, as the bench's user (a member of both groups). */
export async function discover(url: string, summary: GenerateSummary): Promise<Discovered> {
  const typical = summary.typical;
  if (!typical) throw new Error("the dataset has no ordinary group with a member who is also in group 1");
  const token = `gen-${summary.plan.seed}-${typical.userId}`;
  const get = async (path: string) => {
    const answer = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
    const body = Buffer.from(await answer.arrayBuffer());
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${body.toString()}`);
    return { body, headers: Object.fromEntries(PAGE_HEADERS.map((name) => [name, answer.headers.get(name) ?? ""])) };
  };
  const board = await get("/api/board/V2?group=1:1");
  const topics = topicsOf(
    (await get(`/api/board/V2?group=1:${typical.groupId}&max-results=100`)).body.toString(),
    typical.groupId,
  );
  const others = topics.filter((topic) => topic.authorId !== typical.userId).map((topic) => topic.id);
  if (topics.length === 0 || others.length === 0)
    throw new Error(`group ${typical.groupId} has no topic of another member to like`);
  return {
    inputs: {
      token,
      big: { groupId: 1, topicId: summary.plan.bigGroupTopics },
      typical: { groupId: typical.groupId, topicId: topics[0]!.id, likeTopicIds: others.slice(0, 32) },
      boardEtag: board.headers.etag ?? "",
    },
    board,
    userId: typical.userId,
    notifications: await countEntries(get, "/api/notification/V2"),
  };
}

/** Topic ids and authors of a board page, newest first. */
function topicsOf(feed: string, groupId: number): { id: number; authorId: number }[] {
  const entries = feed.split("<entry").slice(1);
  return entries.flatMap((entry) => {
    const id = new RegExp(`<id>GROUP,1:${groupId},BOARD,1:(\\d+)</id>`).exec(entry)?.[1];
    const author = /<author><name>[^<]*<\/name><uri>1:(\d+)<\/uri><\/author>/.exec(entry)?.[1];
    return id && author ? [{ id: Number(id), authorId: Number(author) }] : [];
  });
}

/** Entries of a paged feed, 100 per request. */
async function countEntries(get: (path: string) => Promise<{ body: Buffer }>, path: string): Promise<number> {
  let total = 0;
  for (let start = 0; ; start += 100) {
    const count =
      (await get(`${path}?max-results=100&start-index=${start}`)).body.toString().split("<entry").length - 1;
    total += count;
    if (count < 100) return total;
  }
}
