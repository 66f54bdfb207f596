// Clients writing at full speed against a server (topics, comments, likes), recording every write
// the server acknowledged with 200 and what it said; then a check that each one is present and
// intact. The crash and shutdown suites kill or stop the server under this load.
import { NS } from "../../src/atom/namespaces.js";
import { children } from "../../src/atom/parse.js";
import { CLIENT_NS, atomText, entriesOf, request } from "./http.js";

/** A write the server answered 200, with the content it must keep. */
export type Ack =
  | { readonly kind: "topic"; readonly id: string; readonly title: string; readonly summary: string }
  | { readonly kind: "comment"; readonly id: string; readonly topicId: string; readonly text: string }
  | { readonly kind: "like"; readonly topicId: string; readonly token: string };

/** Answers other than 200, and requests that got no answer at all. */
export interface Refusal {
  readonly status: number | "no answer";
  readonly body: string;
  readonly connection: string | null;
}

/** A running load: acknowledged writes so far, and a way to wait for every writer to stop. */
export interface WriteLoad {
  readonly acks: Ack[];
  readonly refusals: Refusal[];
  /** Resolves once every writer has stopped (each stops at its first unanswered request, or on stop()). */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

/** Text with multibyte characters and XML-special ones, so "intact" means more than ASCII survived. */
function content(writer: number, n: number): string {
  return `w${writer}-${n} 漢字😀 & <é> ${Math.random().toString(36).slice(2)}`;
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Starts `writers` clients, each cycling through: create a topic, comment on a topic, like a
 * topic (topics acknowledged so far, any writer's). `tokens` are Bearer tokens of members of `groupId`.
 */
export function startWriters(
  baseUrl: string,
  options: { writers: number; tokens: readonly string[]; groupId: string; topics?: string[] },
): WriteLoad {
  const acks: Ack[] = [];
  const refusals: Refusal[] = [];
  const topics: string[] = [...(options.topics ?? [])];
  let stopped = false;
  const one = async (writer: number) => {
    const token = options.tokens[writer % options.tokens.length] ?? "";
    for (let n = 0; !stopped; n++) {
      const step = n % 3 === 0 || topics.length === 0 ? "topic" : n % 3 === 1 ? "comment" : "like";
      const target = topics[Math.floor(Math.random() * topics.length)] ?? "";
      const text = content(writer, n);
      const write =
        step === "topic"
          ? {
              path: "/api/board/V2",
              body: `<feed ${CLIENT_NS}><entry><cbl:group id="${options.groupId}"/><title>${escapeXml(text)}</title><summary type="text">${escapeXml(`${text} body`)}</summary></entry></feed>`,
            }
          : step === "comment"
            ? {
                path: "/api/comment/V2",
                body: `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${target}</id><entry><summary type="text">${escapeXml(text)}</summary></entry></feed>`,
              }
            : {
                path: "/api/good/V2",
                body: `<feed ${CLIENT_NS}><cbl:operation type="insert"/><entry><id>${target}</id></entry></feed>`,
              };
      let answer;
      try {
        answer = await request(`${baseUrl}${write.path}`, { token, body: write.body });
      } catch {
        // No answer: the server is gone (killed, or no longer accepting). Not acknowledged.
        refusals.push({ status: "no answer", body: "", connection: null });
        return;
      }
      if (answer.status !== 200) {
        refusals.push({ status: answer.status, body: answer.text, connection: answer.headers.get("connection") });
        continue;
      }
      const id = atomText(entriesOf(answer.xml)[0]!, "id") ?? "";
      if (step === "topic") {
        acks.push({ kind: "topic", id, title: text, summary: `${text} body` });
        topics.push(id);
      } else if (step === "comment") acks.push({ kind: "comment", id, topicId: target, text });
      else acks.push({ kind: "like", topicId: target, token });
    }
  };
  const done = Promise.all(Array.from({ length: options.writers }, (_, writer) => one(writer))).then(() => undefined);
  return {
    acks,
    refusals,
    done,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/** Acknowledged writes not found, or found changed, on the server at `baseUrl` (empty: all intact). */
export async function missingAcks(baseUrl: string, acks: readonly Ack[], readToken: string): Promise<Ack[]> {
  const userOf = new Map<string, string>();
  const whoIs = async (token: string) => {
    if (!userOf.has(token)) {
      const feed = (await request(`${baseUrl}/api/group/V2`, { token })).xml;
      userOf.set(
        token,
        feed.children.find((c) => c.local === "author")?.children.find((c) => c.local === "uri")?.text ?? "?",
      );
    }
    return userOf.get(token);
  };
  const present = async (ack: Ack): Promise<boolean> => {
    if (ack.kind === "topic") {
      const answer = await request(`${baseUrl}/api/board/V2?entry=${ack.id}`, { token: readToken });
      const entry = answer.status === 200 ? entriesOf(answer.xml)[0] : undefined;
      return (
        entry !== undefined && atomText(entry, "title") === ack.title && atomText(entry, "summary") === ack.summary
      );
    }
    if (ack.kind === "comment") return (await commentsOf(ack.topicId)).get(ack.id) === ack.text;
    return (await likersOf(ack.topicId)).includes(await whoIs(ack.token));
  };
  // Each topic's comments and likers are read once, however many acknowledged writes point at them.
  const comments = new Map<string, Promise<Map<string, string | undefined>>>();
  const commentsOf = (topicId: string) => {
    if (!comments.has(topicId)) comments.set(topicId, readComments(baseUrl, topicId, readToken));
    return comments.get(topicId)!;
  };
  const likers = new Map<string, Promise<(string | undefined)[]>>();
  const likersOf = (topicId: string) => {
    if (!likers.has(topicId)) {
      likers.set(
        topicId,
        request(`${baseUrl}/api/good/V2?id=${topicId}`, { token: readToken }).then((answer) =>
          answer.status === 200
            ? entriesOf(answer.xml).flatMap((entry) =>
                children(entry, NS.cbl, "who").map((w) => w.attributes.get("id")),
              )
            : [],
        ),
      );
    }
    return likers.get(topicId)!;
  };
  const missing: Ack[] = [];
  // A few at a time: thousands of checks should not be a load test of their own.
  for (let start = 0; start < acks.length; start += 16) {
    const batch = acks.slice(start, start + 16);
    const found = await Promise.all(batch.map(present));
    batch.forEach((ack, index) => found[index] || missing.push(ack));
  }
  return missing;
}

/** Every comment of a topic (id -> text), page by page. */
async function readComments(baseUrl: string, topicId: string, token: string): Promise<Map<string, string | undefined>> {
  const found = new Map<string, string | undefined>();
  for (let start = 0; ; start += 100) {
    const answer = await request(`${baseUrl}/api/comment/V2?entry=${topicId}&max-results=100&start-index=${start}`, {
      token,
    });
    if (answer.status !== 200) return found;
    const entries = entriesOf(answer.xml);
    for (const entry of entries) found.set(atomText(entry, "id") ?? "", atomText(entry, "summary"));
    if (entries.length < 100) return found;
  }
}
