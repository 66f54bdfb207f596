/** One load scenario: a request repeated by 32 connections, and the status it must get. */
export interface Scenario {
  readonly name: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly expect: number;
  /** A new query for every request: each one is a feed cache miss (built, hashed and kept). */
  readonly uniqueQuery?: boolean;
}

/** What the scenarios need to know about the generated dataset and the running server. */
export interface ScenarioInputs {
  readonly token: string;
  readonly groupId: number;
  /** A topic of that group (the newest one). */
  readonly topicId: number;
  /** The ETag of the board list, for the conditional GET. */
  readonly boardEtag: string;
}

const NS =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010" xmlns:cblCmnt="http://schemas.cybozulive.com/comment/2010"';
const ATOM = { "content-type": "application/atom+xml; charset=utf-8" };

/**
 * The scenario table, reads first (writes change what the reads would see). Endpoints being built
 * on other branches join here, one entry each, once they are merged into main:
 *   - comment list   GET  /api/comment/V2?entry=GROUP,1:g,BOARD,1:t      (branch comments)
 *   - task list      GET  /api/gwTask/V2?group=1:g                       (branch groupware)
 *   - notifications  GET  /api/notification/V2                           (branch groupware)
 *   - like           POST /api/good/V2 (cbl:operation insert on a topic) (branch groupware)
 */
export function scenarios(inputs: ScenarioInputs): readonly Scenario[] {
  const auth = { authorization: `Bearer ${inputs.token}` };
  const board = `/api/board/V2?group=1:${inputs.groupId}`;
  const topicRef = `GROUP,1:${inputs.groupId},BOARD,1:${inputs.topicId}`;
  return [
    // Polls repeat one URL, so from the second request on these read the feed cache.
    { name: "board list (20 topics)", method: "GET", path: board, headers: auth, expect: 200 },
    { name: "board list, every request a cache miss", method: "GET", path: board, headers: auth, expect: 200, uniqueQuery: true },
    { name: "board + embed-comment (20x5)", method: "GET", path: `${board}&embed-comment=true`, headers: auth, expect: 200 },
    { name: "one topic (entry=)", method: "GET", path: `/api/board/V2?entry=${encodeURIComponent(topicRef)}`, headers: auth, expect: 200 },
    { name: "board list, If-None-Match -> 304", method: "GET", path: board, headers: { ...auth, "if-none-match": inputs.boardEtag }, expect: 304 },
    {
      name: "create topic (POST)",
      method: "POST",
      path: "/api/board/V2",
      headers: { ...auth, ...ATOM },
      body: `<feed ${NS}><cbl:operation type="insert"/><entry><cbl:group id="1:${inputs.groupId}"/><title>Load test</title><summary type="text">Written by npm run bench.</summary></entry></feed>`,
      expect: 200,
    },
    {
      name: "add comment (POST, legacy board)",
      method: "POST",
      path: "/api/board/V2",
      headers: { ...auth, ...ATOM },
      body: `<feed ${NS}><id>${topicRef}</id><entry><summary type="text">A comment from npm run bench.</summary></entry></feed>`,
      expect: 200,
    },
  ];
}
