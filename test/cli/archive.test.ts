import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import yauzl from "yauzl";
import { TEST_DATABASE_URL, type TestSchema, createTestSchema } from "../support/backends.js";
import { runKairanHere } from "../support/cli-in-process.js";
import { ArchiveError } from "../../src/domain/archive.js";
import { ARCHIVE_ZIP_LIMITS } from "../../src/domain/limits.js";
import { openArchive } from "../../src/services/archive/archive-zip-read.js";
import { storedZip } from "../support/zip.js";

// The portable archive (`kairan export`, `kairan import FILE`): the demo workspace plus a small
// generated one, exported on SQLite, imported into PostgreSQL (and into another SQLite), exported
// again: the two archives hold the same members with the same bytes but for the export's time, the
// stored files byte for byte. A second import creates nothing; a damaged archive changes nothing.

const DEMO = new URL("../../seeds/demo.json", import.meta.url).pathname;
const SMALL = ["--users", "12", "--groups", "3", "--topics", "20", "--comments", "40", "--tasks", "6"];
const EVENTS = ["--events", "10", "--events-around", "2026-12-01"];
const noPostgres = TEST_DATABASE_URL
  ? false
  : "needs PostgreSQL: set KAIRAN_TEST_DATABASE_URL (the SQLite round trip runs without it)";

/** Every member of a zip by name. */
async function members(file: string): Promise<Map<string, Buffer>> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on("end", resolve).on("error", reject);
    zip.readEntry();
  });
  return out;
}

/** A member as compared: a page with its export time (the feed's first `<updated>`) blanked. */
function comparable(name: string, bytes: Buffer): string {
  if (name === "manifest.json") {
    const manifest = JSON.parse(bytes.toString("utf8")) as { exportedAt: string; members: Record<string, unknown> };
    return JSON.stringify({ ...manifest, exportedAt: "", members: Object.keys(manifest.members).sort() });
  }
  if (name.endsWith(".atom")) return bytes.toString("utf8").replace(/<updated>[^<]*<\/updated>/, "<updated/>");
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * What a site holds of some groups, written without ids: each row by its names, titles, addresses
 * and numbers, and the rows it names the same way (a comment by its topic's title...).
 */
function contentOf(dataDir: string, groupIds: readonly number[]): unknown {
  const db = new SQLite(join(dataDir, "kairan.sqlite"), { readonly: true });
  const within = `(${groupIds.join(",")})`;
  const item = (kind: string, id: string) =>
    `case ${kind} when 'BOARD' then (select title from topics where id = ${id}) when 'TASK' then (select title from tasks where id = ${id}) ` +
    `when 'CABINET' then (select title from files where id = ${id}) when 'GW_SCHEDULE' then (select title from events where id = ${id}) ` +
    `when 'COMMENT' then (select body from comments where id = ${id}) end`;
  const queries = {
    members: `select g.name, u.email, m.status, m.manager, m.notify, m.invite_email from memberships m join groups g on g.id = m.group_id left join users u on u.id = m.user_id where g.id in ${within} order by g.name, u.email, m.invite_email`,
    topics: `select g.name, t.title, t.body, u.email, f.name folder, t.published_at from topics t join groups g on g.id = t.group_id join users u on u.id = t.author_id left join folders f on f.id = t.folder_id where g.id in ${within} order by g.name, t.published_at, t.title`,
    comments: `select g.name, c.parent_kind, ${item("c.parent_kind", "c.parent_id")} parent, c.number, u.email, c.body, c.reply_to from comments c join groups g on g.id = c.group_id join users u on u.id = c.author_id where g.id in ${within} order by 1, 2, 3, 4`,
    counters: `select g.name, k.parent_kind, ${item("k.parent_kind", "k.parent_id")} parent, k.last_number from comment_counters k join comments c on c.parent_kind = k.parent_kind and c.parent_id = k.parent_id and c.number = 1 join groups g on g.id = c.group_id where g.id in ${within} order by 1, 2, 3`,
    tasks: `select g.name, t.sequence, t.title, a.email assignee, f.name folder, t.due_at, t.status from tasks t join groups g on g.id = t.group_id left join users a on a.id = t.assignee_id left join folders f on f.id = t.folder_id where g.id in ${within} order by 1, 2`,
    versions: `select g.name, fi.title, v.version_number, v.file_name, v.size, u.email from file_versions v join files fi on fi.id = v.file_id join groups g on g.id = fi.group_id join users u on u.id = v.author_id where g.id in ${within} order by 1, 2, 3`,
    events: `select g.name, e.title, e.start_at, e.rule, m.name menu, (select group_concat(u.email) from event_participants p join users u on u.id = p.user_id where p.event_id = e.id) people, (select group_concat(fa.name) from event_facilities x join facilities fa on fa.id = x.facility_id where x.event_id = e.id) rooms, (select group_concat(x.original_start || ':' || x.cancelled) from event_exceptions x where x.event_id = e.id) exceptions from events e join groups g on g.id = e.group_id left join event_menus m on m.id = e.menu_id where g.id in ${within} order by 1, 2, 3`,
    reactions: `select 'like', g.name, l.item_kind, ${item("l.item_kind", "l.item_id")} item, u.email from likes l join groups g on g.id = l.group_id join users u on u.id = l.user_id where g.id in ${within} union all select 'favorite', g.name, l.item_kind, ${item("l.item_kind", "l.item_id")} item, u.email from favorites l join groups g on g.id = l.group_id join users u on u.id = l.user_id where g.id in ${within} order by 1, 2, 3, 4`,
    mail: `select g.name, u.email from mail_group_settings s join groups g on g.id = s.group_id join users u on u.id = s.user_id where g.id in ${within} order by 1, 2`,
  };
  try {
    return Object.fromEntries(Object.entries(queries).map(([name, query]) => [name, db.prepare(query).all()]));
  } finally {
    db.close();
  }
}

/** The archive's members with some replaced, and a manifest that vouches for them. */
function vouched(zip: ReadonlyMap<string, Buffer>, changes: Record<string, Buffer>): Map<string, Buffer> {
  const out = new Map(zip);
  const manifest = JSON.parse(zip.get("manifest.json")?.toString("utf8") ?? "{}") as {
    members: Record<string, { sha256: string; size: number }>;
  };
  for (const [name, bytes] of Object.entries(changes)) {
    out.set(name, bytes);
    manifest.members[name] = { sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
  }
  out.set("manifest.json", Buffer.from(JSON.stringify(manifest)));
  return out;
}

async function assertSameArchives(a: string, b: string): Promise<void> {
  const [left, right] = [await members(a), await members(b)];
  assert.deepEqual([...right.keys()].sort(), [...left.keys()].sort());
  for (const [name, bytes] of left)
    assert.equal(comparable(name, right.get(name) ?? Buffer.alloc(0)), comparable(name, bytes), name);
}

// engines: both, because it exports on SQLite and imports into SQLite and into PostgreSQL itself
describe("kairan export FILE and kairan import FILE", () => {
  const dirs: string[] = [];
  const dir = () => {
    const made = mkdtempSync(join(tmpdir(), "kairan-archive-"));
    dirs.push(made);
    return made;
  };
  let source: string;
  let first: string;
  let schema: TestSchema | undefined;

  before(async () => {
    source = dir();
    const generated = await runKairanHere(["generate", "--data", source, "--seed", "5", ...SMALL, ...EVENTS]);
    assert.equal(generated.status, 0, generated.stderr);
    const seeded = await runKairanHere(["seed", DEMO, "--data", source]);
    assert.equal(seeded.status, 0, seeded.stderr);
    // Likes and favorites of a topic and of a comment, and a group's mail turned off: rows the
    // generator and the demo do not make.
    const db = new SQLite(join(source, "kairan.sqlite"));
    const comment = db.prepare("select id, group_id from comments order by id limit 1").get() as {
      id: number;
      group_id: number;
    };
    const topic = db.prepare("select id from topics where group_id = ? order by id limit 1").get(comment.group_id) as {
      id: number;
    };
    const member = db
      .prepare("select user_id from memberships where group_id = ? and user_id is not null order by id limit 1")
      .get(comment.group_id) as { user_id: number };
    const put = (table: string, kind: string, item: number) =>
      db
        .prepare(`insert into ${table} (user_id, item_kind, item_id, group_id, created_at) values (?, ?, ?, ?, 5)`)
        .run(member.user_id, kind, item, comment.group_id);
    put("likes", "BOARD", topic.id);
    put("likes", "COMMENT", comment.id);
    put("favorites", "COMMENT", comment.id);
    db.prepare("insert into mail_group_settings (user_id, group_id, updated_at) values (?, ?, 7)").run(
      member.user_id,
      comment.group_id,
    );
    db.close();
    first = join(dir(), "first.zip");
    const exported = await runKairanHere(["export", first, "--data", source]);
    assert.equal(exported.status, 0, exported.stderr);
    if (!noPostgres) schema = await createTestSchema();
  });
  after(async () => {
    await schema?.drop();
    dirs.forEach((made) => rmSync(made, { recursive: true, force: true }));
  });

  it("writes Atom pages, the stored files and a manifest with counts and checksums", async () => {
    const zip = await members(first);
    const manifest = JSON.parse(zip.get("manifest.json")?.toString("utf8") ?? "{}") as {
      counts: Record<string, number>;
      members: Record<string, { sha256: string; size: number }>;
    };
    assert.ok((manifest.counts.topics ?? 0) >= 24, JSON.stringify(manifest.counts));
    assert.ok((manifest.counts.comments ?? 0) >= 40);
    assert.ok((manifest.counts.events ?? 0) >= 10);
    assert.ok((manifest.counts.file_versions ?? 0) >= 2);
    assert.ok((manifest.counts.blobs ?? 0) >= 2);
    assert.equal(manifest.counts.chat_rooms, 2, "the whole site's archive holds its chat");
    assert.equal(manifest.counts.chat_messages, 4);
    assert.match(zip.get("chat/messages-1.atom")?.toString("utf8") ?? "", /Lunch at noon\?/);
    for (const [name, { sha256, size }] of Object.entries(manifest.members)) {
      const bytes = zip.get(name);
      assert.ok(bytes, name);
      assert.equal(bytes.length, size);
      assert.equal(createHash("sha256").update(bytes).digest("hex"), sha256);
    }
    const topics = zip.get("groups/1/topics-1.atom")?.toString("utf8") ?? "";
    assert.match(topics, /<fh:archive\/>/);
    assert.match(topics, /<entry><id>GROUP,1:1,BOARD,1:\d+<\/id><title>/);
    // Entries as the API writes them (its own presenters), Kairan's record after what clients read.
    assert.match(
      topics,
      /<\/summary><cbl:group valueString="[^"]*" id="1:1"\/><cbl:published>[^<]*<\/cbl:published>(?:<cblBrd:[a-zA-Z]+\/>)*<kairan:record table="topics" id="/,
    );
    assert.match(zip.get("groups/1/tasks-1.atom")?.toString("utf8") ?? "", /<cblTsk:[^]*<kairan:record table="tasks"/);
    const files = zip.get("groups/4/files-1.atom")?.toString("utf8") ?? "";
    assert.match(files, /<cblCbnt:fileName>[^]*<kairan:record table="files"/);
    assert.doesNotMatch(zip.get("accounts-1.atom")?.toString("utf8") ?? "", /password|scrypt/);
  });

  it("round-trips SQLite -> archive -> SQLite -> archive; a second import creates nothing", async () => {
    const target = dir();
    const imported = await runKairanHere(["import", first, "--data", target]);
    assert.equal(imported.status, 0, imported.stderr);
    const second = join(dir(), "second.zip");
    assert.equal((await runKairanHere(["export", second, "--data", target])).status, 0);
    await assertSameArchives(first, second);
    const again = await runKairanHere(["import", first, "--data", target]);
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(again.json<{ created: object }>().created, {});
  });

  it("round-trips SQLite -> archive -> PostgreSQL -> archive, files byte for byte", { skip: noPostgres }, async () => {
    const url = schema?.url ?? "";
    // The stored files live in --data's blob store; the database in PostgreSQL.
    const files = dir();
    const imported = await runKairanHere(["import", first, "--database", url, "--data", files]);
    assert.equal(imported.status, 0, imported.stderr);
    assert.ok((imported.json<{ created: Record<string, number> }>().created.topics ?? 0) >= 24);
    const second = join(dir(), "second.zip");
    const exported = await runKairanHere(["export", second, "--database", url, "--data", files]);
    assert.equal(exported.status, 0, exported.stderr);
    await assertSameArchives(first, second);
    const again = await runKairanHere(["import", first, "--database", url, "--data", files]);
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(again.json<{ created: object }>().created, {});
  });

  it("refuses a damaged archive with one line naming the cause, exit 2, nothing written", async () => {
    const zip = await members(first);
    const target = dir();
    const attempt = async (entries: Map<string, Buffer>, cause: RegExp) => {
      const file = join(dir(), "bad.zip");
      writeFileSync(file, storedZip([...entries].map(([name, bytes]) => ({ name, bytes }))));
      const result = await runKairanHere(["import", file, "--data", target]);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, cause);
      assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    };
    const changed = new Map(zip);
    changed.set("groups/1/topics-1.atom", Buffer.from("<feed/>"));
    await attempt(changed, /bad\.zip: groups\/1\/topics-1\.atom does not match its sha256 checksum/);
    const missing = new Map(zip);
    missing.delete("groups/1/tasks-1.atom");
    await attempt(missing, /groups\/1\/tasks-1\.atom is listed in manifest\.json but missing/);
    // Malformed XML with a manifest that vouches for it: the parser names it.
    const broken = Buffer.from('<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY x "y">]><feed>&x;</feed>');
    const malformed = vouched(zip, { "groups/1/topics-1.atom": broken });
    await attempt(malformed, /groups\/1\/topics-1\.atom: not an Atom document that can be read/);
    // A page read after the stored files were copied (a comment naming a topic the archive lacks):
    // the rows roll back and the copied files are removed again.
    const comments = (zip.get("groups/4/comments-1.atom") ?? Buffer.alloc(0))
      .toString("utf8")
      .replace(/parent_id="\d+"/, 'parent_id="999999"');
    const dangling = vouched(zip, { "groups/4/comments-1.atom": Buffer.from(comments) });
    await attempt(dangling, /groups\/4\/comments-1\.atom: parent_id 999999 names no topics row of the archive/);
    assert.deepEqual(
      readdirSync(join(target, "blobs"), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name)),
      [],
      "no stored file is left behind",
    );
    assert.equal(
      (await runKairanHere(["export", join(dir(), "x.zip"), "--group", "1:77", "--data", target])).stderr,
      "kairan: there is no group GROUP,1:77\n",
    );
    const exported = join(dir(), "empty.zip");
    assert.equal((await runKairanHere(["export", exported, "--data", target])).status, 0);
    const counts = JSON.parse((await members(exported)).get("manifest.json")?.toString("utf8") ?? "{}") as {
      groups: number[];
    };
    assert.deepEqual(counts.groups, [], "nothing was written");
  });

  it("reads an archive within its bounds: each bound passes at its value and refuses one less", async () => {
    const zip = await members(first);
    const sizes = [...zip].map(([name, bytes]) => ({ name, size: bytes.length }));
    const page = Math.max(...sizes.filter(({ name }) => !name.startsWith("blobs/")).map(({ size }) => size));
    const blob = Math.max(...sizes.filter(({ name }) => name.startsWith("blobs/")).map(({ size }) => size));
    const total = sizes.reduce((sum, { size }) => sum + size, 0);
    const exact = {
      ...ARCHIVE_ZIP_LIMITS,
      maxEntries: zip.size,
      maxPageBytes: page,
      maxBlobBytes: blob,
      maxTotalBytes: total,
    };
    (await openArchive(first, "first.zip", exact)).close();
    const refusals: [Partial<typeof exact>, RegExp][] = [
      [{ maxEntries: zip.size - 1 }, /holds \d+ entries; an archive may have at most/],
      [{ maxPageBytes: page - 1 }, /unpacks to \d+ bytes; a member may have at most/],
      [{ maxBlobBytes: blob - 1 }, /unpacks to \d+ bytes; a member may have at most/],
      [{ maxTotalBytes: total - 1 }, /the members unpack to more than/],
    ];
    for (const [bound, cause] of refusals)
      await assert.rejects(openArchive(first, "first.zip", { ...exact, ...bound }), (error: unknown) => {
        assert.ok(error instanceof ArchiveError);
        assert.match(error.message, cause);
        return true;
      });
  });

  it("renumbers rows whose ids are taken and rewrites every reference; accounts are matched by address", async () => {
    const target = dir();
    assert.equal((await runKairanHere(["seed", DEMO, "--data", target])).status, 0);
    const imported = await runKairanHere(["import", first, "--data", target]);
    assert.equal(imported.status, 0, imported.stderr);
    const report = imported.json<{
      groups: Record<string, string>;
      found: Record<string, number>;
      renumbered: Record<string, number>;
    }>();
    assert.ok(
      (report.renumbered.groups ?? 0) >= 1 && (report.renumbered.topics ?? 0) >= 4,
      JSON.stringify(report.renumbered),
    );
    assert.ok((report.found.accounts ?? 0) >= 2, "the demo's people are the same accounts here");
    const pair = (id: string) => Number(/1:(\d+)$/.exec(id)?.[1]);
    const before = contentOf(source, Object.keys(report.groups).map(pair));
    assert.deepEqual(contentOf(target, Object.values(report.groups).map(pair)), before);
    // The demo's two people talk here already: the archived direct messages join their room after its own.
    const db = new SQLite(join(target, "kairan.sqlite"), { readonly: true });
    const direct = db
      .prepare(
        "select m.number, m.body, r.last_number from chat_messages m join chat_rooms r on r.id = m.room_id where r.type = 'DIRECT' order by m.number",
      )
      .all();
    db.close();
    assert.deepEqual(
      direct.map((row) => Object.values(row as object).join(" ")),
      ["1 Lunch at noon? 4", "2 Sure, see you then. 4", "3 Lunch at noon? 4", "4 Sure, see you then. 4"],
    );
    const again = await runKairanHere(["import", first, "--data", target]);
    assert.deepEqual(
      again.json<{ created: object }>().created,
      {},
      "a second import adds nothing, joined messages included",
    );
    const counts = before as Record<string, unknown[]>;
    for (const kind of ["comments", "counters", "versions", "events", "reactions", "mail"])
      assert.ok((counts[kind]?.length ?? 0) > 0, `the check sees some ${kind}`);
  });
});
