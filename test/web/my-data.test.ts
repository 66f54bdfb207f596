// The download of one's own data (`GET /account/export`) over real HTTP: a zip with README.txt,
// profile.json, one Atom feed per kind (the API's entries), events.ics and every file version the
// person uploaded, bytes as stored, names made safe. Only the person's own: another member's
// topics, comments, messages and files are not in it, nor anyone's personal events and tasks.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import yauzl from "yauzl";
import { newBlobKey } from "../../src/blobs/blob-store.js";
import { safeName } from "../../src/domain/my-data.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile, addTestVersion } from "../support/files.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";
import { seedPersonalTask } from "../support/world.js";
import { parseXml } from "../../src/atom/parse.js";

/** Every entry of a zip, by name, with its bytes. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, strictFileNames: true }, (error, zip) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on("error", reject);
      zip.on("end", () => resolve(files));
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

async function download(
  server: TestServer,
  web: WebClient,
): Promise<{ response: Response; files: Map<string, Buffer> }> {
  const response = await fetch(`${server.url}/account/export`, {
    headers: { cookie: `kairan_session=${web.cookie("kairan_session") ?? ""}` },
    redirect: "manual",
  });
  assert.equal(response.status, 200, await response.clone().text());
  return { response, files: await unzip(Buffer.from(await response.arrayBuffer())) };
}

/** Stores `text` in the server's blob store and returns its key, as an upload would. */
async function storeBlob(server: TestServer, text: string): Promise<string> {
  const temp = await server.blobs.createTemp();
  await new Promise<void>((resolve, reject) => temp.stream.end(Buffer.from(text), () => resolve()).on("error", reject));
  const key = newBlobKey();
  await server.blobs.commit(temp, key);
  return key;
}

describeEachBackend("downloading one's own data", (backend) => {
  let server: TestServer;
  let olga: TestUser;
  let otto: TestUser;
  let web: WebClient;
  const fileBytes = Buffer.from([0, 1, 2, 250, 251, 252, 13, 10]);

  before(async () => {
    server = await startTestServer(backend);
    olga = await server.factories.user({ name: "Owner Olga" });
    otto = await server.factories.user({ name: "Other Otto" });
    const group = await server.factories.group([olga, otto], { name: "Shared/../Group" });
    const f = server.factories;
    const ottoTopic = await f.topic(group, otto, { title: "Otto topic", body: "Otto's words" });
    await f.topic(group, olga, { title: "Olga topic", body: "Olga's words" });
    await f.comment(ottoTopic, olga, { body: "Olga comment" });
    await f.comment(ottoTopic, otto, { body: "Otto comment" });
    await seedPersonalTask(server, olga, "Olga private task");
    await seedPersonalTask(server, otto, "Otto private task");
    const start = Date.parse("2026-04-03T09:00:00Z");
    for (const [owner, title] of [
      [olga, "Olga private event"],
      [otto, "Otto private event"],
    ] as const)
      await server.store.transaction((tx) =>
        tx.personalEvents.insert({
          ownerId: owner.id,
          title,
          memo: "",
          start,
          end: start + 60 * 60 * 1000,
          allDay: false,
          timeZone: "UTC",
          rule: null,
          exceptions: [],
          seriesEnd: start + 60 * 60 * 1000,
          at: start,
        }),
      );
    const olgaComment = await f.comment(ottoTopic, olga, { body: "Olga's comment with a file" });
    const ottoComment = await f.comment(ottoTopic, otto, { body: "Otto's comment with a file" });
    const stored = [
      await storeBlob(server, "Olga's comment file"),
      await storeBlob(server, "Otto's comment file"),
      await storeBlob(server, "Olga's chat file"),
      await storeBlob(server, "Otto's chat file"),
    ] as const;
    await server.store.transaction(async (tx) => {
      const at = server.clock.now();
      const room = await tx.chat.createRoom({ type: "THEME", title: "Room", creatorId: olga.id, directKey: null, at });
      await tx.chat.addMembers(room, [olga.id, otto.id], at);
      const olgaMessage = await tx.chat.push(room, olga.id, "Olga chat", at);
      const ottoMessage = await tx.chat.push(room, otto.id, "Otto chat", at);
      const file = { position: 1, contentType: "text/plain", size: 1, at };
      await tx.attachments.insert({
        ...file,
        groupId: group.id,
        commentId: olgaComment.id,
        fileName: "minutes.txt",
        blobKey: stored[0],
      });
      await tx.attachments.insert({
        ...file,
        groupId: group.id,
        commentId: ottoComment.id,
        fileName: "otto.txt",
        blobKey: stored[1],
      });
      await tx.chatAttachments.insert({
        ...file,
        roomId: room,
        messageNumber: olgaMessage,
        fileName: "photo.txt",
        blobKey: stored[2],
      });
      await tx.chatAttachments.insert({
        ...file,
        roomId: room,
        messageNumber: ottoMessage,
        fileName: "otto.txt",
        blobKey: stored[3],
      });
    });
    const file = await addTestFile(server, group, olga, { fileName: "..notes:1?.txt", bytes: fileBytes });
    await addTestVersion(server, file, olga, Buffer.from("second version"));
    await addTestVersion(server, file, otto, Buffer.from("Otto's version"));
    await addTestFile(server, group, otto, { fileName: "otto.txt", bytes: Buffer.from("Otto file") });
    web = new WebClient(server.url);
    await web.signIn(olga.email);
  });
  after(() => server.close());

  it("is a zip named for the day, not cached, linked from the account page", async () => {
    const page = await web.get("/account");
    assert.match(page.html, /<a class="button" href="\/account\/export" download>Download my data<\/a>/);
    const { response, files } = await download(server, web);
    assert.equal(response.headers.get("content-type"), "application/zip");
    assert.match(
      response.headers.get("content-disposition") ?? "",
      /^attachment; filename="kairan-my-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    assert.match(response.headers.get("cache-control") ?? "", /no-store/);
    const names = [...files.keys()];
    for (const name of [
      "README.txt",
      "profile.json",
      "topics.atom",
      "comments.atom",
      "events.atom",
      "events.ics",
      "todo.atom",
      "chat.atom",
    ])
      assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
    // Every name is a plain relative path: no `..`, no leading slash, no backslash.
    for (const name of names) assert.doesNotMatch(name, /(^|\/)\.\.(\/|$)|^\/|\\/, name);
  });

  it("holds the profile, and only the person's own items as the API's Atom entries", async () => {
    const { files } = await download(server, web);
    const text = (name: string) => files.get(name)?.toString("utf8") ?? "";
    const profile = JSON.parse(text("profile.json")) as Record<string, unknown>;
    assert.equal(profile.name, "Owner Olga");
    assert.equal(profile.email, olga.email);
    assert.ok("timeZone" in profile && "language" in profile && "reading" in profile);
    assert.match(String(profile.created), /^\d{4}-\d{2}-\d{2}T/);
    for (const name of ["topics.atom", "comments.atom", "events.atom", "todo.atom", "chat.atom"])
      assert.doesNotThrow(() => parseXml(text(name)), name);
    assert.match(text("topics.atom"), /Olga topic/);
    assert.match(text("comments.atom"), /Olga comment/);
    assert.match(text("events.atom"), /Olga private event/);
    assert.match(text("events.ics"), /BEGIN:VCALENDAR[\s\S]*SUMMARY:Olga private event/);
    assert.match(text("todo.atom"), /Olga private task/);
    assert.match(text("chat.atom"), /Olga chat/);
    assert.match(text("topics.atom"), /<entry>[\s\S]*<cbl:group valueString="Shared\/..\/Group"/);
    // Nothing of Otto's: not his topic, comment or message, and never his private event or task.
    const all = [...files.values()].map((bytes) => bytes.toString("utf8")).join("\n");
    for (const theirs of [
      "Otto topic",
      "Otto comment",
      "Otto chat",
      "Otto private event",
      "Otto private task",
      "Otto file",
      "Otto's version",
    ])
      assert.ok(!all.includes(theirs), `${theirs} is not in the download`);
    assert.match(text("README.txt"), /profile\.json/);
  });

  it("holds every version the person uploaded, bytes as stored, under a safe name", async () => {
    const { files } = await download(server, web);
    const uploads = [...files.keys()].filter((name) => name.startsWith("files/"));
    assert.deepEqual(uploads, ["files/Shared_.._Group/notes_1_.txt", "files/Shared_.._Group/notes_1_ (2).txt"]);
    assert.deepEqual(files.get(uploads[0] ?? ""), fileBytes);
    assert.equal(files.get(uploads[1] ?? "")?.toString(), "second version");
  });

  it("holds the files of the person's comments and chat messages, and not others'", async () => {
    const { files } = await download(server, web);
    const attached = [...files.keys()].filter((name) => name.startsWith("attachments/"));
    assert.deepEqual(attached, ["attachments/comments/Shared_.._Group/minutes.txt", "attachments/chat/Room/photo.txt"]);
    assert.equal(files.get("attachments/comments/Shared_.._Group/minutes.txt")?.toString(), "Olga's comment file");
    assert.equal(files.get("attachments/chat/Room/photo.txt")?.toString(), "Olga's chat file");
    assert.match(files.get("README.txt")?.toString() ?? "", /^attachments\/ /m);
  });

  it("makes names safe as one path segment", () => {
    assert.equal(safeName("../../etc/passwd"), "_.._etc_passwd");
    assert.equal(safeName(".."), "_");
    assert.equal(safeName("a\\b:c*d?.txt"), "a_b_c_d_.txt");
    assert.equal(safeName("CON.txt"), "_CON.txt");
    assert.equal(safeName("\u0000"), "_");
    assert.equal(safeName(" .hidden"), "hidden");
    const long = `${"あ".repeat(300)}.pdf`;
    assert.equal([...safeName(long)].length, 120);
    assert.ok(safeName(long).endsWith(".pdf"));
    assert.equal(safeName("x".repeat(120)), "x".repeat(120));
    assert.equal(safeName("x".repeat(121)).length, 120);
  });

  it("sends a signed-out browser to sign in, and another person gets only their own", async () => {
    const signedOut = await new WebClient(server.url).get("/account/export");
    assert.equal(signedOut.status, 303);
    assert.match(signedOut.location ?? "", /^\/signin\?next=%2Faccount%2Fexport/);
    const ottoWeb = new WebClient(server.url);
    await ottoWeb.signIn(otto.email);
    const { files } = await download(server, ottoWeb);
    const all = [...files.values()].map((bytes) => bytes.toString("utf8")).join("\n");
    assert.match(all, /Otto private task/);
    for (const hers of ["Olga topic", "Olga comment", "Olga chat", "Olga private event", "Olga private task"])
      assert.ok(!all.includes(hers), `${hers} is not in Otto's download`);
    assert.deepEqual(
      [...files.keys()].filter((name) => name.startsWith("files/")),
      ["files/Shared_.._Group/notes_1_.txt", "files/Shared_.._Group/otto.txt"],
    );
  });
});
