// A group's archive for its managers (`GET /g/1:n/export`, linked from the group's settings page):
// the zip `kairan export --group` writes, refused to a member who is no manager and to a non-member.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import yauzl from "yauzl";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

/** The members of a zip (in memory) by name. */
async function unzip(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const out = new Map<string, string>();
  for (;;) {
    const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
      zip
        .once("entry", resolve)
        .once("end", () => resolve(undefined))
        .once("error", reject);
      zip.readEntry();
    });
    zip.removeAllListeners("entry").removeAllListeners("end");
    if (entry === undefined) return out;
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
  }
}

describeEachBackend("web: a group's archive", (backend) => {
  let server: TestServer;
  let hana: TestUser;
  let ken: TestUser;
  let outsider: TestUser;
  let group: Group;
  let g: string;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    hana = await f.user({ name: "Hana", email: "hana@example.com" });
    ken = await f.user({ name: "Ken", email: "ken@example.com" });
    outsider = await f.user({ name: "Oscar" });
    group = await f.group([hana, ken], { name: "Choir" });
    await f.group([outsider], { name: "Elsewhere" });
    g = `/g/1:${group.id}`;
    const topic = await f.topic(group, hana, { title: "Rehearsal on Friday", body: "Bring <scores> & water" });
    await f.comment(topic, ken, { body: "I will" });
  });
  after(() => server.close());

  it("gives a manager the zip from the settings page: pages, accounts, manifest", async () => {
    const web = new WebClient(server.url);
    await web.signIn(hana.email);
    const page = await web.get(`${g}/edit`);
    assert.match(page.html, new RegExp(`href="${g}/export" download`));
    const answer = await web.get(`${g}/export`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("content-type"), "application/zip");
    assert.match(answer.headers.get("content-disposition") ?? "", /kairan-group-\d+-\d{4}-\d\d-\d\d\.zip/);
    const files = await unzip(answer.bytes);
    const manifest = JSON.parse(files.get("manifest.json") ?? "{}") as {
      groups: number[];
      counts: Record<string, number>;
    };
    assert.deepEqual(manifest.groups, [group.id]);
    assert.equal(manifest.counts.topics, 1);
    assert.equal(manifest.counts.comments, 1);
    assert.equal(manifest.counts.accounts, 2, "the two members, not the outsider");
    assert.match(files.get(`groups/${group.id}/topics-1.atom`) ?? "", /Bring &lt;scores&gt; &amp; water/);
    assert.doesNotMatch(files.get("accounts-1.atom") ?? "", /Oscar/);
  });

  it("refuses a member who is no manager, a non-member, and answers 404 for no such group", async () => {
    const member = new WebClient(server.url);
    await member.signIn(ken.email);
    assert.equal((await member.get(`${g}/export`)).status, 403);
    const stranger = new WebClient(server.url);
    await stranger.signIn(outsider.email);
    const refused = await stranger.get(`${g}/export`);
    assert.equal(refused.status, 403);
    assert.doesNotMatch(refused.html, /Choir|Rehearsal/);
    assert.equal((await stranger.get("/g/1:999999/export")).status, 404);
  });
});
