// The files of the download of one's own data (services/account/my-data.ts reads it): README.txt,
// profile.json, one Atom feed per kind written by the API's own entry presenters, events.ics as
// `me.ics` writes it, then the uploaded versions. Feeds are written page by page as they are read.
import { Readable } from "node:stream";
import { formatPersonalEventId } from "../domain/item-id.js";
import type { Locale } from "../domain/task.js";
import type { MyData } from "../services/account/my-data.js";
import { chatMessageEntry } from "./chat.js";
import { commentEntry } from "./comment.js";
import { type Viewer, feedParts } from "./feed.js";
import { calendarText } from "./ical.js";
import { personalEventEntry } from "./schedule.js";
import { personalTaskEntry } from "./todo.js";
import { topicEntry } from "./topic.js";

/** One file of the download: text, a stream, or stored bytes opened when its turn comes. */
export interface MyDataFile {
  readonly name: string;
  readonly body: string | Readable | (() => Promise<Readable | undefined>);
}

/** The download's file name, e.g. `kairan-my-data-2026-11-28.zip`. */
export function myDataFileName(now: number): string {
  return `kairan-my-data-${new Date(now).toISOString().slice(0, 10)}.zip`;
}

/** The files of `data`, in their order in the zip. */
export async function* myDataFiles(
  baseUrl: string,
  locale: Locale,
  data: MyData,
  now: number,
): AsyncGenerator<MyDataFile> {
  const viewer: Viewer = { id: data.owner.id, name: data.owner.name, email: data.owner.email };
  const feed = <T>(kind: string, title: string, pages: AsyncIterable<readonly T[]>, entry: (item: T) => string) => ({
    name: `${kind}.atom`,
    body: Readable.from(
      feedText(
        { title, id: `${baseUrl}/account/export#${kind}`, alternate: `${baseUrl}/account`, viewer, updated: now },
        pages,
        entry,
      ),
    ),
  });
  yield { name: "README.txt", body: README };
  yield { name: "profile.json", body: `${JSON.stringify(data.profile, null, 2)}\n` };
  yield feed("topics", "Topics you wrote", data.topics(), ({ group, topic }) =>
    topicEntry(baseUrl, group, topic, undefined),
  );
  yield feed("comments", "Comments you wrote", data.comments(), (detail) =>
    commentEntry(baseUrl, detail, { withContent: false }),
  );
  yield feed("events", "Your personal events", data.events(), (entry) => personalEventEntry(baseUrl, entry));
  yield { name: "events.ics", body: () => calendarOf(baseUrl, data) };
  yield feed("todo", "Your personal ToDo tasks", data.tasks(), (task) => personalTaskEntry(baseUrl, task, locale));
  yield feed("chat", "Chat messages you wrote", data.messages(), (message) =>
    chatMessageEntry(baseUrl, data.owner.id, message),
  );
  for await (const upload of data.uploads()) yield { name: upload.path, body: upload.open };
}

/** A feed document, its entries written page by page. */
async function* feedText<T>(
  head: Parameters<typeof feedParts>[0],
  pages: AsyncIterable<readonly T[]>,
  entry: (item: T) => string,
): AsyncGenerator<string> {
  const { start, end } = feedParts(head);
  yield start;
  for await (const page of pages) yield page.map(entry).join("");
  yield end;
}

/** The personal events as one iCalendar file (the library writes it whole: events are few). */
async function calendarOf(baseUrl: string, data: MyData): Promise<Readable> {
  const events = [];
  for await (const page of data.events()) events.push(...page.map((entry) => entry.event));
  const text = calendarText(
    {
      name: `Kairan: ${data.owner.name}`,
      owner: data.owner,
      events: events.map((event) => ({
        itemId: formatPersonalEventId(event),
        page: { kind: "personal", eventId: event.id },
        event: { ...event, menuName: null, facilities: [] },
      })),
    },
    baseUrl,
  );
  return Readable.from([text]);
}

const README = `Your data from Kairan
=====================

profile.json    your account: name, reading, e-mail address, time zone, language, and when it was made
topics.atom     the topics you wrote, in every group (also groups you have left), as Atom entries
                the same as the API's board feed writes them (without others' comments)
comments.atom   the comments you wrote, on topics, tasks, files and events, as Atom entries
events.atom     your personal events (not the groups' events), as Atom entries
events.ics      the same personal events as an iCalendar file, for a calendar application
todo.atom       your personal ToDo tasks (not the groups' tasks), as Atom entries
chat.atom       the chat messages you wrote, as Atom entries
files/          every version of a shared file you uploaded, as stored, under the group's name;
                a name that repeats gets " (2)", " (3)" and so on
attachments/    the files of your comments (comments/, under the group's name) and of your chat
                messages (chat/, under the room's title), named the same way

Only what you wrote or own is here: other people's topics, comments, messages, files, events and
tasks are not, even where you replied to them. Times in the Atom files are UTC.
`;
