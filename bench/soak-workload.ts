// The soak's mixed load: reads, writes, likes and uploads in fixed proportions, as a generated
// dataset's members would send them. Each operation says which status counts as success.
import { randomBytes } from "node:crypto";

/** One request of the mix, ready to send. */
export interface Operation {
  readonly kind: "read" | "write" | "like" | "upload";
  readonly path: string;
  readonly method: "GET" | "POST";
  readonly headers: Record<string, string>;
  readonly body?: Buffer | string;
}

/** What the operations need to know: tokens of members of group 1, and topics of that group. */
export interface Dataset {
  readonly tokens: readonly string[];
  readonly topicIds: string[];
}

const NS = 'xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010"';
const BOUNDARY = "----kairan-soak-7d1c";

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;

/** The mix, by cumulative weight: 45 % reads, 25 % writes, 20 % likes, 10 % uploads. */
export function nextOperation(data: Dataset): Operation {
  const roll = Math.random();
  const auth = { authorization: `Bearer ${pick(data.tokens)}` };
  const topic = pick(data.topicIds);
  if (roll < 0.45) {
    const reads = [
      `/api/board/V2?group=1:1&start-index=${Math.floor(Math.random() * 100)}`,
      `/api/board/V2?entry=${topic}`,
      `/api/comment/V2?entry=${topic}`,
      `/api/board/V2?group=1:1&embed-comment=true&max-results=5`,
    ];
    return { kind: "read", method: "GET", path: pick(reads), headers: auth };
  }
  const atom = { ...auth, "content-type": "application/atom+xml; charset=utf-8" };
  if (roll < 0.7) {
    const body =
      Math.random() < 0.4
        ? `<feed ${NS}><entry><cbl:group id="1:1"/><title>soak ${Date.now()}</title><summary type="text">${"text ".repeat(40)}</summary></entry></feed>`
        : `<feed ${NS}><cbl:operation type="insert"/><id>${topic}</id><entry><summary type="text">soak comment ${"漢字 ".repeat(20)}</summary></entry></feed>`;
    return {
      kind: "write",
      method: "POST",
      path: body.includes("cbl:group") ? "/api/board/V2" : "/api/comment/V2",
      headers: atom,
      body,
    };
  }
  if (roll < 0.9) {
    // Like or unlike at random: the likes table stays bounded however long the soak runs.
    const body = `<feed ${NS}><cbl:operation type="${Math.random() < 0.5 ? "insert" : "delete"}"/><entry><id>${topic}</id></entry></feed>`;
    return { kind: "like", method: "POST", path: "/api/good/V2", headers: atom, body };
  }
  return upload(auth, topic);
}

/** A comment with one file of 16 KB to 1 MB. */
function upload(auth: Record<string, string>, topic: string): Operation {
  const size = 16_384 + Math.floor(Math.random() * (1_048_576 - 16_384));
  const xml = `<feed ${NS}><cbl:operation type="insert"/><id>${topic}</id><entry><summary type="text">soak upload</summary></entry></feed>`;
  const body = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="default"\r\n\r\n${xml}\r\n`),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file0"; filename="soak.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    randomBytes(size),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return {
    kind: "upload",
    method: "POST",
    path: "/api/comment/V2",
    headers: { ...auth, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  };
}
