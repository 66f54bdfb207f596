// The import of the original service's export from the browser (/admin/import) over real HTTP, on
// every engine: the committed zips uploaded, a check that writes nothing, an import that makes the
// command's counts with the administrator named in the audit rows, a second import that makes
// nothing, broken uploads answered with the one line that names file, line and column and nothing
// changed, the form's rules (group, time zone, file), the size bound at its boundary (a 1 MB
// bound here), and the refusals (another person, a form without its token).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type WebAnswer, WebClient, assertValidHtml } from "../support/web.js";
import { storedZip } from "../support/zip.js";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/cybozulive");
const JA_ZIP = readFileSync(join(FIXTURES, "zips", "export-ja-cp932-names.zip"));
const EN_ZIP = readFileSync(join(FIXTURES, "zips", "export-en-utf8-names.zip"));
const MB = 1024 * 1024;

/** The English export with one broken field on the board's line 14 (as the command line's test). */
function brokenZip(): Buffer {
  const folder = join(FIXTURES, "en-utf8");
  return storedZip(
    readdirSync(folder).map((name) => {
      const bytes = readFileSync(join(folder, name));
      const text =
        name === "live_Forum_20180713.csv" ? bytes.toString("utf8").replace('"Schedule"', '"Sched"ule"') : undefined;
      return { name, bytes: text === undefined ? bytes : Buffer.from(text) };
    }),
  );
}

interface Upload {
  readonly zip?: { readonly name: string; readonly bytes: Uint8Array };
  readonly group?: string;
  readonly groupName?: string;
  readonly tz?: string;
  readonly mode?: "dry-run" | "import";
  readonly csrf?: string | null;
}

/** The numbers of the report's counts table: what was made, and what was there already. */
function counts(html: string): Record<string, [number, number]> {
  const rows = html.matchAll(/<tr data-count="(\w+)"><th scope="row">[^<]*<\/th><td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/g);
  return Object.fromEntries([...rows].map(([, key, made, found]) => [key, [Number(made), Number(found)]]));
}

describeEachBackend("web: the administration's import of the original service's export", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  let admin: TestUser;
  let member: TestUser;
  let adminWeb: WebClient;
  let memberWeb: WebClient;
  let existingId: number;

  before(async () => {
    server = await startTestServer(backend, { limits: { importUploadMb: "1" } });
    snapshots = openSnapshotter(server);
    admin = await server.factories.user({ name: "Ada Admin" });
    member = await server.factories.user({ name: "Mem Ber" });
    await server.store.transaction((tx) => tx.users.update(admin.id, { siteAdmin: true }));
    existingId = (await server.factories.group([member], { name: "Existing Club" })).id;
    const archived = await server.factories.group([member], { name: "Old Archive" });
    await server.store.transaction((tx) => tx.groupAdmin.setArchived(archived.id, server.clock.now()));
    adminWeb = new WebClient(server.url);
    memberWeb = new WebClient(server.url);
    await adminWeb.signIn(admin.email);
    await memberWeb.signIn(member.email);
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  /** Sends the form as a browser does: the token first, the fields, the file, the button pressed. */
  async function upload(web: WebClient, fields: Upload): Promise<WebAnswer> {
    const page = await web.get("/admin/import");
    const token = fields.csrf === undefined ? /name="_csrf" value="([^"]*)"/.exec(page.html)?.[1] : fields.csrf;
    const form = new FormData();
    if (token !== null && token !== undefined) form.append("_csrf", token);
    form.append("group", fields.group ?? "");
    form.append("group-name", fields.groupName ?? "");
    form.append("tz", fields.tz ?? "Asia/Tokyo");
    if (fields.zip) form.append("export", new Blob([fields.zip.bytes], { type: "application/zip" }), fields.zip.name);
    form.append("mode", fields.mode ?? "dry-run");
    return web.postMultipart("/admin/import", form);
  }

  /** Asserts the upload is refused with `status` and `message`, and changed nothing at all. */
  async function refusedUnchanged(web: WebClient, fields: Upload, status: number, message: RegExp) {
    const before = await snapshots.take();
    const answer = await upload(web, fields);
    assert.equal(answer.status, status, answer.html.slice(0, 400));
    assert.match(answer.html, message);
    assert.equal(describeChange(before, await snapshots.take()), "");
    return answer;
  }

  it("shows the form in the administration's navigation: groups in use to choose, Asia/Tokyo, the size bound", async () => {
    const page = await adminWeb.get("/admin/import");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "import");
    assert.match(page.html, /<a href="\/admin\/import" aria-current="page">Import<\/a>/);
    assert.match(page.html, /enctype="multipart\/form-data"/);
    assert.match(page.html, new RegExp(`<option value="1:${existingId}">Existing Club</option>`));
    assert.doesNotMatch(page.html, /Old Archive/);
    assert.match(page.html, /name="tz"[^>]*value="Asia\/Tokyo"/);
    assert.match(page.html, /At most 1\.0 MB/);
    assert.match(page.html, /Check \(dry run\)/);
    assert.match((await adminWeb.get("/admin")).html, /href="\/admin\/import"/);
    assert.equal((await adminWeb.get("/m/admin/import")).status, 200, "the phone variant");
  });

  it("checks the zip (dry run): the command's report, and nothing written", async () => {
    const before = await snapshots.take();
    const answer = await upload(adminWeb, { zip: { name: "export-ja.zip", bytes: JA_ZIP }, groupName: "移行 (web)" });
    assert.equal(answer.status, 200, answer.html.slice(0, 400));
    await assertValidHtml(answer.html, "dry run report");
    assert.match(answer.html, /Check: nothing was changed/);
    assert.match(answer.html, /移行 \(web\) \(would be made\)/);
    assert.deepEqual(counts(answer.html).topics, [3, 0]);
    assert.deepEqual(counts(answer.html).chatMessages, [4, 0]);
    assert.match(
      answer.html,
      /export-ja\.zip:サイボウズLive\/live_掲示板_20180305\.csv<\/td><td>board<\/td><td>windows-31j<\/td><td>3<\/td>/,
    );
    assert.match(answer.html, /WITHDRAWN_PERSON/, "the problems table");
    assert.equal(describeChange(before, await snapshots.take()), "");
  });

  it("imports as the administrator (the audit rows name them), links the group, and a second import makes nothing", async () => {
    const first = await upload(adminWeb, {
      zip: { name: "export-ja.zip", bytes: JA_ZIP },
      groupName: "移行 (web)",
      mode: "import",
    });
    assert.equal(first.status, 200, first.html.slice(0, 400));
    await assertValidHtml(first.html, "import report");
    assert.match(first.html, /Imported/);
    const made = counts(first.html);
    assert.deepEqual(
      Object.fromEntries(Object.entries(made).map(([key, [n]]) => [key, n])),
      { topics: 3, comments: 5, tasks: 4, events: 4, chatRooms: 1, chatMessages: 4, accounts: 5, members: 5 },
      "the command line's counts for this export",
    );
    const link = /<a id="import-group-link" href="(\/g\/1:(\d+))">移行 \(web\)<\/a> \(new\)/.exec(first.html);
    assert.ok(link, "the report links the new group");
    const groupId = Number(link[2]);
    assert.match(
      first.html,
      new RegExp(`href="/admin/groups/1:${groupId}"`),
      "and its administration page (no manager yet)",
    );
    const topics = await server.store.read((tx) => tx.topics.list(groupId, { kind: "all" }, { offset: 0, limit: 10 }));
    assert.equal(topics.length, 3);
    const rows = await server.store.read((tx) =>
      tx.auditEvents.list({ actions: ["group.create", "user.create", "member.add"], groupId, limit: 50 }),
    );
    assert.equal(rows.length, 1 + 5 + 5);
    assert.ok(rows.every((row) => row.actor_user_id === admin.id && row.actor_label !== COMMAND_LINE_ACTOR.label));
    const second = await upload(adminWeb, {
      zip: { name: "export-ja.zip", bytes: JA_ZIP },
      group: `1:${groupId}`,
      mode: "import",
    });
    assert.equal(second.status, 200);
    const again = counts(second.html);
    assert.ok(
      Object.values(again).every(([n]) => n === 0),
      JSON.stringify(again),
    );
    assert.deepEqual(again.topics, [0, 3]);
  });

  it("imports the English zip into a chosen group, times read in the zone given", async () => {
    const answer = await upload(adminWeb, {
      zip: { name: "export-en.zip", bytes: EN_ZIP },
      group: `1:${existingId}`,
      tz: "UTC",
      mode: "import",
    });
    assert.equal(answer.status, 200, answer.html.slice(0, 400));
    assert.match(answer.html, new RegExp(`href="/g/1:${existingId}">Existing Club</a>`));
    assert.match(answer.html, /<dd>UTC<\/dd>/);
    assert.deepEqual(counts(answer.html).topics, [2, 0]);
  });

  it("answers a broken export with the one line naming file, line and column, and changes nothing", async () => {
    await refusedUnchanged(
      adminWeb,
      { zip: { name: "broken.zip", bytes: brokenZip() }, groupName: "Broken", mode: "import" },
      400,
      /role="alert"[^>]*>broken\.zip:live_Forum_20180713\.csv, line 14, column 16: text after the closing quote of a field</,
    );
    await refusedUnchanged(
      adminWeb,
      { zip: { name: "export.zip", bytes: Buffer.from("PK") }, groupName: "Broken", mode: "import" },
      400,
      /export\.zip: not a zip file that can be read/,
    );
    await refusedUnchanged(
      adminWeb,
      { zip: { name: "empty.zip", bytes: storedZip([]) }, groupName: "Broken", mode: "import" },
      400,
      /empty\.zip: no \.csv or \.txt files in the zip/,
    );
  });

  it("refuses a form without a file, a group, a good zone, or with both kinds of group, changing nothing", async () => {
    const zip = { name: "export-en.zip", bytes: EN_ZIP };
    await refusedUnchanged(adminWeb, { groupName: "X", mode: "import" }, 400, /Choose the zip file of the export/);
    await refusedUnchanged(adminWeb, { zip, mode: "import" }, 400, /Choose a group, or give the name of a new group/);
    await refusedUnchanged(
      adminWeb,
      { zip, group: `1:${existingId}`, groupName: "X", mode: "import" },
      400,
      /not both/,
    );
    await refusedUnchanged(adminWeb, { zip, group: "1:99999", mode: "import" }, 404, /There is no group 1:99999/);
    const zone = await refusedUnchanged(
      adminWeb,
      { zip, groupName: "X", tz: "Mars/Olympus", mode: "import" },
      400,
      /The time zone must be an IANA time zone such as Asia\/Tokyo \(got &quot;Mars\/Olympus&quot;\)/,
    );
    assert.match(zone.html, /name="tz"[^>]*value="Mars\/Olympus"/, "the form keeps what was sent");
    await refusedUnchanged(adminWeb, { zip, groupName: " ", mode: "import" }, 400, /Choose a group/);
  });

  it("takes a zip of exactly the bound and refuses one byte more (413), changing nothing", async () => {
    const atBound = Buffer.alloc(MB, 0x61);
    await refusedUnchanged(
      adminWeb,
      { zip: { name: "big.zip", bytes: atBound }, groupName: "Big", mode: "import" },
      400,
      /big\.zip: not a zip file that can be read/,
    );
    await refusedUnchanged(
      adminWeb,
      { zip: { name: "big.zip", bytes: Buffer.alloc(MB + 1, 0x61) }, groupName: "Big", mode: "import" },
      413,
      /larger than 1048576 bytes/,
    );
  });

  it("refuses another person (403, a refused row) and a form without its token (403), changing nothing else", async () => {
    const zip = { name: "export-en.zip", bytes: EN_ZIP };
    const before = await snapshots.take();
    // The member's own form token: the guard, not CSRF, refuses.
    const token = /name="_csrf" value="([^"]*)"/.exec((await memberWeb.get("/settings")).html)?.[1] ?? null;
    const answer = await upload(memberWeb, { zip, groupName: "Stolen", mode: "import", csrf: token });
    assert.equal(answer.status, 403);
    assert.equal((await memberWeb.get("/admin/import")).status, 403);
    assert.equal(describeChange(before, await snapshots.take()), "");
    const refused = await server.store.read((tx) =>
      tx.auditEvents.list({ actions: ["group.import"], outcome: "refused", limit: 5 }),
    );
    assert.equal(refused.length, 1);
    assert.equal(refused[0]?.actor_user_id, member.id);
    await refusedUnchanged(adminWeb, { zip, groupName: "No Token", mode: "import", csrf: null }, 403, /expired/);
    await refusedUnchanged(
      adminWeb,
      { zip, groupName: "Bad Token", mode: "import", csrf: "x".repeat(43) },
      403,
      /expired/,
    );
    const signedOut = new WebClient(server.url);
    assert.equal((await signedOut.get("/admin/import")).status, 303);
  });
});
