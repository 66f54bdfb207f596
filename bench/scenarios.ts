/** One HTTP request. */
export interface Request {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** One load scenario: a request repeated by 32 connections, and the status it must get. */
export interface Scenario extends Request {
  readonly name: string;
  readonly expect: number;
  /** A new query for every request: each one is a feed cache miss (built, hashed and kept). */
  readonly uniqueQuery?: boolean;
  /**
   * For writes that must change something every time: connection k loops over
   * `cycles[k % cycles.length]` instead of repeating the request above (which is its first step).
   */
  readonly cycles?: readonly (readonly Request[])[];
}

/** A group of the generated dataset and topics of it. */
export interface GroupInputs {
  readonly groupId: number;
  /** A topic of the group (the newest one, with its comments). */
  readonly topicId: number;
}

/** What the scenarios need to know about the generated dataset and the running server. */
export interface ScenarioInputs {
  /** A member of both groups below, with notifications in both. */
  readonly token: string;
  /** Group 1, the 5,000-member group: the reads, and the writes that fan out to 5,000. */
  readonly big: GroupInputs;
  /** An ordinary group (about 20 members): the writes of the "2,000 writes/s" target. */
  readonly typical: GroupInputs & {
    /** Topics of others in that group, one per connection for the like scenario. */
    readonly likeTopicIds: readonly number[];
  };
  /** The ETag of the big group's board list, for the conditional GET. */
  readonly boardEtag: string;
}

const NS =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010" xmlns:cblCmnt="http://schemas.cybozulive.com/comment/2010"';
const ATOM = { "content-type": "application/atom+xml; charset=utf-8" };

const topicRef = (groupId: number, topicId: number) => `GROUP,1:${groupId},BOARD,1:${topicId}`;

/**
 * The scenario table: reads first (writes change what the reads would see), then the writes in an
 * ordinary group, then those in the 5,000-member group (each of those adds 5,000 notifications,
 * which would slow the ordinary writes had they run before).
 */
export function scenarios(inputs: ScenarioInputs): readonly Scenario[] {
  return [...reads(inputs), ...writes(inputs)];
}

function reads(inputs: ScenarioInputs): readonly Scenario[] {
  const auth = { authorization: `Bearer ${inputs.token}` };
  const board = `/api/board/V2?group=1:${inputs.big.groupId}`;
  const ref = encodeURIComponent(topicRef(inputs.big.groupId, inputs.big.topicId));
  return [
    // Polls repeat one URL, so from the second request on these read the feed cache.
    { name: "board list (20 topics)", method: "GET", path: board, headers: auth, expect: 200 },
    {
      name: "board list, every request a cache miss",
      method: "GET",
      path: board,
      headers: auth,
      expect: 200,
      uniqueQuery: true,
    },
    {
      name: "board + embed-comment (20x5)",
      method: "GET",
      path: `${board}&embed-comment=true`,
      headers: auth,
      expect: 200,
    },
    { name: "one topic (entry=)", method: "GET", path: `/api/board/V2?entry=${ref}`, headers: auth, expect: 200 },
    {
      name: "comment list (5 comments)",
      method: "GET",
      path: `/api/comment/V2?entry=${ref}`,
      headers: auth,
      expect: 200,
    },
    {
      name: "task list (page of 20)",
      method: "GET",
      path: `/api/gwTask/V2?group=1:${inputs.big.groupId}`,
      headers: auth,
      expect: 200,
    },
    { name: "notifications (page of 20)", method: "GET", path: "/api/notification/V2", headers: auth, expect: 200 },
    {
      name: "board list, If-None-Match -> 304",
      method: "GET",
      path: board,
      headers: { ...auth, "if-none-match": inputs.boardEtag },
      expect: 304,
    },
  ];
}

function writes(inputs: ScenarioInputs): readonly Scenario[] {
  const post = {
    method: "POST",
    path: "/api/board/V2",
    headers: { authorization: `Bearer ${inputs.token}`, ...ATOM },
    expect: 200,
  } as const;
  const createTopic = (groupId: number) =>
    `<feed ${NS}><cbl:operation type="insert"/><entry><cbl:group id="1:${groupId}"/><title>Load test</title><summary type="text">Written by npm run bench.</summary></entry></feed>`;
  const addComment = (group: GroupInputs) =>
    `<feed ${NS}><id>${topicRef(group.groupId, group.topicId)}</id><entry><summary type="text">A comment from npm run bench.</summary></entry></feed>`;
  const { typical, big } = inputs;
  const likes = likeCycles(inputs);
  return [
    { ...post, name: "create topic (ordinary group)", body: createTopic(typical.groupId) },
    { ...post, name: "add comment (ordinary group)", body: addComment(typical) },
    { ...likes[0]![0]!, name: "like / unlike (ordinary group)", expect: 200, cycles: likes },
    { ...post, name: "create topic, 5,000-member group", body: createTopic(big.groupId) },
    { ...post, name: "add comment, 5,000-member group", body: addComment(big) },
  ];
}

/**
 * A like of an item already liked changes nothing, so each connection alternates like and unlike
 * of a topic of its own (written by someone else): every request adds or removes a like and the
 * author's like notification.
 */
function likeCycles(inputs: ScenarioInputs): readonly (readonly Request[])[] {
  const headers = { authorization: `Bearer ${inputs.token}`, ...ATOM };
  const body = (operation: "insert" | "delete", topicId: number) =>
    `<feed ${NS}><cbl:operation type="${operation}"/><entry><id>${topicRef(inputs.typical.groupId, topicId)}</id></entry></feed>`;
  return inputs.typical.likeTopicIds.map((topicId) => [
    { method: "POST", path: "/api/good/V2", headers, body: body("insert", topicId) },
    { method: "POST", path: "/api/good/V2", headers, body: body("delete", topicId) },
  ]);
}
