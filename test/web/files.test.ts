import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, it } from "node:test";
import type { CabinetFile } from "../../src/domain/file.js";
import type { Group } from "../../src/domain/group.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import { filesUnder } from "../support/eventually.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile, addTestVersion } from "../support/files.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml, textOfId } from "../support/web.js";

/** Characters that count as one each but take 4 bytes: the limits count characters. */
const wide = (n: number) => "𝄞".repeat(n);

describeEachBackend("web pages: shared files (upload, versions, move, trash)", (backend) => {
  let server: TestServer;
  let alice: TestUser; // manager
  let bob: TestUser;
  let carol: TestUser;
  let group: Group;
  let g: string;
  let folderId: number;
  let bobWeb: WebClient;
  let carolWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    group = await f.group([alice, bob, carol], { managers: [alice] });
    folderId = await f.folder(group, "CABINET", "Minutes");
    g = `/g/1:${group.id}`;
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
    carolWeb = new WebClient(server.url);
    await carolWeb.signIn(carol.email);
  });
  after(() => server.close());

  const allFiles = () =>
    server.store.read(async (tx) => [
      ...(await tx.files.list(group.id, { kind: "all" }, { offset: 0, limit: 100 })),
      ...(await tx.files.list(group.id, { kind: "trash" }, { offset: 0, limit: 100 })),
    ]);
  const findFile = (id: number) => server.store.read((tx) => tx.files.findById(id));
  const tempFiles = () => filesUnder(join(server.dataDir, "tmp"));

  /** The upload form as a browser sends it: the token first, then the fields and the file. */
  function uploadForm(
    web: WebClient,
    fields: Record<string, string>,
    file: { name: string; bytes: Uint8Array } | undefined,
  ): FormData {
    const form = new FormData();
    form.set("_csrf", web.csrf());
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.append("file", new Blob([file?.bytes ?? new Uint8Array(0)]), file?.name ?? "");
    return form;
  }

  async function upload(
    fields: Record<string, string>,
    file: { name: string; bytes: Uint8Array } = { name: "report.txt", bytes: Buffer.from("v1") },
  ) {
    await bobWeb.get(`${g}/files`);
    return bobWeb.postMultipart(`${g}/files`, uploadForm(bobWeb, fields, file));
  }

  it("uploads a file from the list page's form into a folder, tells the others, and serves its bytes", async () => {
    const page = await bobWeb.get(`${g}/files?folder=1:${folderId}`);
    assert.match(page.html, /enctype="multipart\/form-data"/);
    assert.match(page.html, new RegExp(`<option value="1:${folderId}" selected>Minutes</option>`));
    await assertValidHtml(page.html, "files page with the upload form");
    const answer = await upload({ title: "Q3 report", memo: "Line one\nline two", folder: `1:${folderId}` });
    assert.equal(answer.status, 303, answer.html.slice(0, 400));
    const file = (await allFiles()).find((f) => f.title === "Q3 report")!;
    assert.equal(answer.location, `${g}/files/1:${file.id}`);
    assert.deepEqual(
      [file.memo, file.folderId, file.authorId, file.current.fileName, file.current.size, file.current.number],
      ["Line one\nline two", folderId, bob.id, "report.txt", 2, 1],
    );
    const shown = await bobWeb.get(answer.location!);
    assert.match(shown.html, /<h1>Q3 report<\/h1>/);
    const id = encodeURIComponent(`GROUP,1:${group.id},CABINET,1:${file.id}`);
    assert.equal((await bobWeb.get(`/download?id=${id}`)).html, "v1");
    const unread = (user: TestUser) =>
      server.store.read((tx) => tx.notifications.unconfirmedOf(user.id, "CABINET", [file.id]));
    assert.deepEqual([...(await unread(alice))], [file.id], "the other members hear of it");
    assert.deepEqual([...(await unread(bob))], [], "not the uploader");
    assert.deepEqual(tempFiles(), []);
  });

  it("keeps the title and memo limits at their boundary, keeps what was typed, and stores nothing when refused", async () => {
    const before = (await allFiles()).length;
    const atLimit = await upload({ title: wide(LIMITS.topicTitleMaxChars), memo: wide(LIMITS.topicBodyMaxChars) });
    assert.equal(atLimit.status, 303, atLimit.html.slice(0, 400));
    for (const [fields, message] of [
      [
        { title: wide(LIMITS.topicTitleMaxChars + 1), memo: "kept memo" },
        "The file title is longer than 200 characters.",
      ],
      [
        { title: "kept title", memo: wide(LIMITS.topicBodyMaxChars + 1) },
        "The file memo is longer than 20000 characters.",
      ],
    ] as const) {
      const refused = await upload(fields);
      assert.equal(refused.status, 400);
      assert.equal(textOfId(refused.html, "upload-error"), message);
      assert.ok(refused.html.includes(fields.title.slice(0, 20)), "the title is kept");
      await assertValidHtml(refused.html, "upload form with its problem");
    }
    const none = await upload({ title: "no file" }, { name: "", bytes: new Uint8Array(0) });
    assert.equal(none.status, 400);
    assert.equal(textOfId(none.html, "upload-error"), "Choose a file to upload.");
    await bobWeb.get(`${g}/files`);
    const plain = await bobWeb.post(`${g}/files`, { title: "plain form without a file" });
    assert.equal(plain.status, 400, "a form without multipart has no file either");
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(bob.email);
    await ja.get(`${g}/files`);
    const jaRefused = await ja.postMultipart(
      `${g}/files`,
      uploadForm(ja, { title: wide(201) }, { name: "a.txt", bytes: Buffer.from("a") }),
    );
    assert.equal(textOfId(jaRefused.html, "upload-error"), "タイトルは 200 文字までです。");
    assert.equal((await allFiles()).length, before + 1);
    assert.deepEqual(tempFiles(), []);
  });

  it("takes a file of exactly 25 MB and refuses one byte more, keeping nothing of it", async () => {
    const before = (await allFiles()).length;
    const exact = await upload({}, { name: "big.bin", bytes: new Uint8Array(LIMITS.fileMaxBytes) });
    assert.equal(exact.status, 303, exact.html.slice(0, 400));
    const over = await upload({}, { name: "bigger.bin", bytes: new Uint8Array(LIMITS.fileMaxBytes + 1) });
    assert.equal(over.status, 413);
    assert.match(over.html, /bigger\.bin/);
    const files = await allFiles();
    assert.equal(files.length, before + 1);
    assert.equal(files.find((f) => f.current.fileName === "big.bin")?.current.size, LIMITS.fileMaxBytes);
    assert.deepEqual(tempFiles(), []);
  });

  it("refuses a second file, a stray part and a missing or late token before storing anything", async () => {
    const before = (await allFiles()).length;
    await bobWeb.get(`${g}/files`);
    const two = uploadForm(bobWeb, {}, { name: "one.txt", bytes: Buffer.from("1") });
    two.append("file", new Blob(["2"]), "two.txt");
    const refusedTwo = await bobWeb.postMultipart(`${g}/files`, two);
    assert.equal(refusedTwo.status, 400);
    assert.match(refusedTwo.html, /Upload one file at a time\./);
    const stray = uploadForm(bobWeb, {}, undefined);
    stray.append("files", new Blob(["x"]), "x.txt");
    assert.equal((await bobWeb.postMultipart(`${g}/files`, stray)).status, 400);
    const late = new FormData();
    late.append("file", new Blob(["payload"]), "payload.txt");
    late.set("_csrf", bobWeb.csrf());
    assert.equal((await bobWeb.postMultipart(`${g}/files`, late)).status, 403);
    const forged = uploadForm(bobWeb, {}, { name: "p.txt", bytes: Buffer.from("p") });
    forged.set("_csrf", "forged");
    assert.equal((await bobWeb.postMultipart(`${g}/files`, forged)).status, 403);
    for (const folder of ["1:999999", "junk"]) {
      await bobWeb.get(`${g}/files`);
      const form = uploadForm(bobWeb, { folder }, { name: "lost.txt", bytes: Buffer.from("x") });
      assert.equal((await bobWeb.postMultipart(`${g}/files`, form)).status, 404, folder);
    }
    assert.equal((await allFiles()).length, before);
    assert.deepEqual(tempFiles(), []);
  });

  it("adds versions with a change note (1,000 characters at most); the page shows the newest five", async () => {
    const file = await addTestFile(server, group, alice, { fileName: "plan.txt", bytes: Buffer.from("one") });
    const path = `${g}/files/1:${file.id}`;
    const version = async (comment: string, name = "plan-v2.txt") => {
      await carolWeb.get(path);
      const form = new FormData();
      form.set("_csrf", carolWeb.csrf());
      form.set("comment", comment);
      form.append("file", new Blob([`bytes of ${name}`]), name);
      return carolWeb.postMultipart(`${path}/versions`, form);
    };
    const added = await version(wide(LIMITS.fileCommentMaxChars));
    assert.equal(added.status, 303, added.html.slice(0, 400));
    assert.equal(added.location, `${path}#history`);
    const refused = await version(wide(LIMITS.fileCommentMaxChars + 1));
    assert.equal(refused.status, 400);
    assert.equal(textOfId(refused.html, "version-error"), "The change note is longer than 1000 characters.");
    await assertValidHtml(refused.html, "file page with the version form's problem");
    const empty = await version("", "");
    assert.equal(textOfId(empty.html, "version-error"), "Choose a file to upload.");
    const current = await findFile(file.id);
    assert.deepEqual(
      [current?.current.number, current?.current.fileName, current?.current.authorId],
      [2, "plan-v2.txt", carol.id],
    );
    for (let n = 3; n <= 7; n++) assert.equal((await version(`v${n}`, `plan-v${n}.txt`)).status, 303);
    const page = await carolWeb.get(path);
    const listed = [...page.html.matchAll(/Download version (\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(listed, [7, 6, 5, 4, 3], "the history shows the newest five");
    const id = encodeURIComponent(`GROUP,1:${group.id},CABINET,1:${file.id}`);
    assert.equal((await carolWeb.get(`/download?id=${id}&version=1`)).html, "one", "older versions stay");
    assert.deepEqual(tempFiles(), []);
  });

  it("moves a file between folders and out of them; a folder of another group or area is not found", async () => {
    const file = await addTestFile(server, group, bob, { fileName: "move.txt" });
    const path = `${g}/files/1:${file.id}`;
    await carolWeb.get(path);
    const moved = await carolWeb.post(`${path}/move`, { folder: `1:${folderId}` });
    assert.equal(moved.status, 303);
    assert.equal(moved.location, path);
    assert.equal((await findFile(file.id))?.folderId, folderId);
    assert.match((await carolWeb.get(`${g}/files?folder=1:${folderId}`)).html, /move\.txt/);
    await carolWeb.get(path);
    assert.equal((await carolWeb.post(`${path}/move`, { folder: "" })).status, 303);
    assert.equal((await findFile(file.id))?.folderId, null);
    const boardFolder = await server.factories.boardFolder(group, "Not for files");
    const other = await server.factories.group([carol]);
    const foreign = await server.factories.folder(other, "CABINET", "Elsewhere");
    for (const folder of [`1:${boardFolder}`, `1:${foreign}`, "1:999999", "junk"]) {
      await carolWeb.get(path);
      assert.equal((await carolWeb.post(`${path}/move`, { folder })).status, 404, folder);
    }
    assert.equal((await findFile(file.id))?.folderId, null);
  });

  it("trashes and restores a file; in the trash it takes no version and no move", async () => {
    const file = await addTestFile(server, group, alice, { fileName: "old.txt", folderId });
    const path = `${g}/files/1:${file.id}`;
    await carolWeb.get(path);
    const trashed = await carolWeb.post(`${path}/trash`);
    assert.equal(trashed.status, 303);
    assert.equal((await findFile(file.id))?.trashed, true);
    const page = await carolWeb.get(path);
    assert.match(page.html, /This file is in the trash\./);
    assert.doesNotMatch(page.html, /Delete for good/, "Carol is neither the author nor a manager");
    assert.doesNotMatch(page.html, /id="version-form"/);
    await assertValidHtml(page.html, "a trashed file's page");
    const trash = await carolWeb.get(`${g}/files?folder=TRASH`);
    assert.match(trash.html, /old\.txt/);
    assert.match(trash.html, new RegExp(`action="${path}/restore"`), "the trash's list offers Restore");
    await assertValidHtml(trash.html, "the trash's list");
    assert.doesNotMatch((await carolWeb.get(`${g}/files`)).html, /old\.txt/);
    await carolWeb.get(path);
    assert.equal((await carolWeb.post(`${path}/move`, { folder: "" })).status, 409);
    await carolWeb.get(path);
    const form = new FormData();
    form.set("_csrf", carolWeb.csrf());
    form.append("file", new Blob(["new"]), "new.txt");
    const version = await carolWeb.postMultipart(`${path}/versions`, form);
    assert.equal(version.status, 409);
    assert.match(version.html, /The file is in the trash; restore it first\./);
    await carolWeb.get(path);
    assert.equal((await carolWeb.post(`${path}/restore`)).status, 303);
    const restored = await findFile(file.id);
    assert.deepEqual([restored?.trashed, restored?.folderId, restored?.current.number], [false, folderId, 1]);
    assert.deepEqual(tempFiles(), []);
  });

  it("deletes a file for good from the trash only, by its author or a manager, with its versions, comments and bytes", async () => {
    const file: CabinetFile = await addTestFile(server, group, bob, { fileName: "gone.txt" });
    await addTestVersion(server, file, carol, Buffer.from("second"));
    const path = `${g}/files/1:${file.id}`;
    await carolWeb.get(path);
    const form = new FormData();
    form.set("_csrf", carolWeb.csrf());
    form.set("text", "a comment with a file");
    form.append("files", new Blob(["attached"]), "attached.txt");
    assert.equal((await carolWeb.postMultipart(`${path}/comments`, form)).status, 303);
    await carolWeb.get(path);
    assert.equal((await carolWeb.post(`${path}/like`, { on: "true" })).status, 303);
    const keys = await server.store.read(async (tx) => {
      const versions = await tx.files.listHistories([(await tx.files.findById(file.id))!], 10);
      const comment = await tx.comments.find({ kind: "CABINET", groupId: group.id, id: file.id }, 1);
      const attachments = await tx.attachments.listOf([comment!.id]);
      return [...versions.map((v) => v.blobKey), ...attachments.map((a) => a.blobKey)];
    });
    assert.equal(keys.length, 3);
    await bobWeb.get(path);
    assert.equal((await bobWeb.post(`${path}/delete`)).status, 409, "not in the trash yet");
    await bobWeb.get(path);
    await bobWeb.post(`${path}/trash`);
    await carolWeb.get(path);
    assert.equal((await carolWeb.post(`${path}/delete`)).status, 403, "Carol is neither the author nor a manager");
    assert.ok(await findFile(file.id));
    const page = await bobWeb.get(path);
    assert.match(page.html, /data-confirm="Delete this file with all its versions and comments\?/);
    const deleted = await bobWeb.post(`${path}/delete`);
    assert.equal(deleted.status, 303);
    assert.equal(deleted.location, `${g}/files?folder=TRASH`);
    assert.equal(await findFile(file.id), undefined);
    const left = await server.store.read(async (tx) => ({
      versions: await tx.files.findVersion(file.id, 1),
      comments: await tx.comments.count({ kind: "CABINET", groupId: group.id, id: file.id }, {}),
      likes: await tx.likes.likers({ kind: "CABINET", id: file.id }),
      notified: await tx.notifications.unconfirmedOf(alice.id, "CABINET", [file.id]),
    }));
    assert.deepEqual([left.versions, left.comments, left.likes, [...left.notified]], [undefined, 0, [], []]);
    for (const key of keys) assert.equal(await server.blobs.open(key), undefined, `the bytes of ${key} are gone`);
    assert.equal((await bobWeb.get(path)).status, 404);
  });

  it("lets a manager delete anyone's file from the trash", async () => {
    const file = await addTestFile(server, group, carol, { fileName: "carols.txt" });
    const path = `${g}/files/1:${file.id}`;
    const aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    await aliceWeb.get(path);
    await aliceWeb.post(`${path}/trash`);
    await aliceWeb.get(path);
    assert.equal((await aliceWeb.post(`${path}/delete`)).status, 303);
    assert.equal(await findFile(file.id), undefined);
  });

  it("asks whether a file named like one in the folder is a new version or a separate file, and does what is chosen", async () => {
    const folder = `1:${folderId}`;
    const named = { name: "agenda.txt", bytes: Buffer.from("first") };
    const first = await upload({ title: "", memo: "", folder }, named);
    assert.equal(first.status, 303);
    const before = (await allFiles()).length;
    const again = { name: "agenda.txt", bytes: Buffer.from("second") };
    const asked = await upload({ title: "", memo: "", folder }, again);
    assert.equal(asked.status, 400);
    await assertValidHtml(asked.html, "upload form asking about the name");
    assert.match(asked.html, /A file named &quot;agenda\.txt&quot; is already in this folder/);
    assert.match(asked.html, /<input type="radio" name="sameName" value="version" checked>/);
    assert.match(asked.html, /<input type="radio" name="sameName" value="separate">/);
    assert.equal((await allFiles()).length, before, "asking stores nothing");
    assert.deepEqual(tempFiles(), [], "nor keeps the bytes");

    const versioned = await upload({ title: "", memo: "", folder, sameName: "version" }, again);
    assert.equal(versioned.status, 303);
    assert.equal(versioned.location, first.location, "the upload became the file's next version");
    assert.equal((await allFiles()).length, before);
    const fileId = Number(first.location?.split(":").pop());
    assert.equal((await findFile(fileId))?.current.number, 2);

    const separate = await upload({ title: "", memo: "", folder, sameName: "separate" }, again);
    assert.equal(separate.status, 303);
    assert.notEqual(separate.location, first.location);
    assert.equal((await allFiles()).length, before + 1);
    // The same name elsewhere (no folder) is no question, and the API keeps making separate files.
    assert.equal((await upload({ title: "", memo: "", folder: "" }, again)).status, 303);
  });
});
