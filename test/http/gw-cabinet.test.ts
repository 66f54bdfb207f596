import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import sharp from "sharp";
import { attribute } from "../../src/atom/parse.js";
import type { CabinetFile } from "../../src/domain/file.js";
import type { Group } from "../../src/domain/group.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile, addTestVersion, pngOf } from "../support/files.js";
import { describeEachBackend } from "../support/backends.js";
import { CLIENT_NS, assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { postMultipart } from "../support/multipart.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("GET /api/gwCabinet/V2 and /api/fileDownload/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let group: Group;
  let folderId: number;
  let image: CabinetFile;
  let history: CabinetFile;
  let png: Buffer;
  let cabinet: (query: string, token?: string) => ReturnType<typeof request>;
  const idOf = (file: CabinetFile) => `GROUP,1:${file.groupId},CABINET,1:${file.id}`;
  const download = (query: string, token = alice.token) =>
    fetch(`${server.url}/api/fileDownload/V2?${query}`, { headers: { authorization: `Bearer ${token}` } });
  const titles = async (query: string) => entriesOf((await cabinet(query)).xml).map((e) => atomText(e, "title"));

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice Aoki" });
    bob = await f.user({ name: "Bob Baba" });
    outsider = await f.user();
    group = await f.group([alice, bob], { name: "Dev" });
    folderId = await f.folder(group, "CABINET", "Docs");
    png = await pngOf(320, 200);
    image = await addTestFile(server, group, alice, {
      fileName: "画像 photo.png",
      bytes: png,
      title: "Photo",
      memo: "a memo & <b>",
      folderId,
    });
    server.clock.advance(1000);
    history = await addTestFile(server, group, alice, {
      fileName: "spec.txt",
      bytes: Buffer.from("v1"),
      comment: "first",
    });
    for (let v = 2; v <= 7; v++) {
      server.clock.advance(1000);
      history = await addTestVersion(
        server,
        history,
        v % 2 ? alice : bob,
        Buffer.from(`v${v}`),
        v === 7 ? "" : `change ${v}`,
      );
    }
    server.clock.advance(1000);
    const trashed = await addTestFile(server, group, bob, { fileName: "old.bin" });
    await server.store.transaction((tx) => tx.files.update(trashed.id, { trashed: true, at: server.clock.now() }));
    cabinet = (query, token = alice.token) => request(`${server.url}/api/gwCabinet/V2?${query}`, { token });
  });
  after(() => server.close());

  it("lists files newest first with every field; an image has its real size and a thumbnail", async () => {
    const answer = await cabinet(`group=1:${group.id}&cabinet-folder=UNCLASSIFIED`);
    assert.equal(answer.status, 200);
    await assertValidAtom(answer.text);
    assert.deepEqual(
      await titles(`group=1:${group.id}`),
      ["spec.txt", "Photo"],
      "no title: the file name; trash left out",
    );
    const [text, photo] = entriesOf((await cabinet(`group=1:${group.id}`)).xml) as [never, never];
    assert.equal(nsChild(text, "cblCbnt", "fileName")?.text, "spec.txt");
    assert.equal(nsChild(text, "cblCbnt", "fileSize")?.text, "2");
    assert.equal(nsChild(text, "cblCbnt", "versionNumber")?.text, "7");
    assert.equal(nsChild(text, "cblCbnt", "thumbnailExists")?.text, "false");
    assert.equal(nsChild(text, "cblCbnt", "imageFileWidth"), undefined, "only images have a size");
    assert.equal(nsChild(photo, "cblCbnt", "imageFileWidth")?.text, "320");
    assert.equal(nsChild(photo, "cblCbnt", "imageFileHeight")?.text, "200");
    assert.equal(nsChild(photo, "cblCbnt", "thumbnailExists")?.text, "true");
    assert.equal(nsChild(photo, "cblCbnt", "fileSize")?.text, String(png.length));
    assert.equal(atomText(photo, "summary"), "a memo & <b>");
    assert.equal(attribute(nsChild(photo, "cblCbnt", "folder")!, "valueString"), "Docs");
    assert.equal(attribute(nsChild(photo, "cbl", "group")!, "id"), `1:${group.id}`);
    assert.equal(atomText(photo, "id"), idOf(image));
  });

  it("writes the literal prefixes and the documented order", async () => {
    const { text } = await cabinet(`entry=${idOf(image)}`);
    assert.match(text, /<cblCbnt:fileName>画像 photo\.png<\/cblCbnt:fileName>/);
    assert.match(
      text,
      /<cblCbnt:imageFileWidth>320<\/cblCbnt:imageFileWidth><cblCbnt:imageFileHeight>200<\/cblCbnt:imageFileHeight>/,
    );
    assert.match(text, /<cblCbnt:folder valueString="Docs" id="1:\d+"\/>/);
    const order = [
      "<id>",
      "<title",
      'rel="alternate"',
      'rel="mobile"',
      '<category term="GROUP"',
      '<category term="CABINET"',
      "<author>",
      "<updated>",
      "<summary",
      "<cblCbnt:fileName>",
      "<cblCbnt:fileSize>",
      "<cblCbnt:thumbnailExists>",
      "<cblCbnt:folder ",
      "<cblCbnt:versionNumber>",
      "<cbl:group ",
    ];
    const positions = order.map((needle) => text.indexOf(needle, text.indexOf("<entry>")));
    assert.ok(
      positions.every((p) => p >= 0),
      JSON.stringify(positions),
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
    );
  });

  it("filters by folder id, UNCLASSIFIED, ATTACH and TRASH", async () => {
    const g = `group=1:${group.id}`;
    assert.deepEqual(await titles(`${g}&cabinet-folder=1:${folderId}`), ["Photo"]);
    assert.deepEqual(await titles(`${g}&cabinet-folder=UNCLASSIFIED`), ["spec.txt"]);
    assert.deepEqual(await titles(`${g}&cabinet-folder=TRASH`), ["old.bin"]);
    assert.deepEqual(await titles(`${g}&cabinet-folder=ATTACH`), []);
    assertError(await cabinet(`${g}&cabinet-folder=1:99999`), 404, "FOLDER_NOT_FOUND");
    assertError(await cabinet(`${g}&cabinet-folder=junk`), 400, "INVALID_FOLDER");
  });

  it("embeds the 5 newest versions, newest first, with embed-history=true", async () => {
    const answer = await cabinet(`entry=${idOf(history)}&embed-history=true`);
    assert.equal(answer.status, 200);
    await assertValidAtom(answer.text);
    const entry = entriesOf(answer.xml)[0]!;
    const sub = nsChild(nsChild(nsChild(entry, "cblCbnt", "histories")!, "cbl", "feedLink")!, "atom", "feed")!;
    const versions = entriesOf(sub);
    assert.deepEqual(
      versions.map((v) => nsChild(v, "cblCbnt", "versionNumber")?.text),
      ["7", "6", "5", "4", "3"],
    );
    assert.equal(nsChild(versions[0]!, "cblCbnt", "fileName")?.text, "spec.txt");
    assert.equal(atomText(versions[0]!, "summary"), undefined, "no change comment, no summary");
    assert.equal(atomText(versions[1]!, "summary"), "change 6");
    assert.equal(atomText(nsChild(versions[1]!, "atom", "author")!, "name"), "Bob Baba");
    assert.equal(atomText(nsChild(versions[2]!, "atom", "author")!, "name"), "Alice Aoki");
    assert.match(answer.text, /<cblCbnt:histories><cbl:feedLink href="/);
    assert.equal(
      nsChild(entriesOf((await cabinet(`entry=${idOf(history)}`)).xml)[0]!, "cblCbnt", "histories"),
      undefined,
    );
    const list = await cabinet(`group=1:${group.id}&embed-history=True`);
    await assertValidAtom(list.text);
    assert.equal(
      (list.text.match(/<cblCbnt:versionNumber>/g) ?? []).length,
      2 + 5 + 1,
      "two entries, 5 + 1 history entries",
    );
  });

  it("downloads the bytes, any version, and thumbnails, members only", async () => {
    const answer = await download(`id=${encodeURIComponent(idOf(image))}`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("content-type"), "image/png");
    assert.equal(answer.headers.get("content-length"), String(png.length));
    assert.equal(
      answer.headers.get("content-disposition"),
      `attachment; filename="__ photo.png"; filename*=UTF-8''${encodeURIComponent("画像 photo.png")}`,
    );
    assert.deepEqual(Buffer.from(await answer.arrayBuffer()), png);
    assert.equal(await (await download(`id=${idOf(history)}&version=3`)).text(), "v3");
    assert.equal(await (await download(`id=${idOf(history)}`)).text(), "v7");
    const thumbnail = await download(`id=${idOf(image)}&thumbnail=true`);
    assert.equal(thumbnail.status, 200);
    assert.equal(thumbnail.headers.get("content-type"), "image/png");
    const meta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    assert.deepEqual([meta.width, meta.height], [160, 100], "at most 160 px, proportions kept");
    assertError(
      await request(`${server.url}/api/fileDownload/V2?id=${idOf(history)}&thumbnail=true`, { token: alice.token }),
      404,
      "THUMBNAIL_NOT_FOUND",
    );
    assertError(
      await request(`${server.url}/api/fileDownload/V2?id=${idOf(history)}&version=8`, { token: alice.token }),
      404,
      "VERSION_NOT_FOUND",
    );
    assertError(
      await request(`${server.url}/api/fileDownload/V2?id=${idOf(history)}&version=0`, { token: alice.token }),
      400,
      "INVALID_VERSION",
    );
    assertError(
      await request(`${server.url}/api/fileDownload/V2?id=${idOf(image)}`, { token: outsider.token }),
      403,
      "GROUP_NOT_JOINED",
    );
    assertError(
      await request(`${server.url}/api/fileDownload/V2?id=GROUP,1:${group.id},TASK,1:1`, { token: alice.token }),
      404,
      "ITEM_NOT_FOUND",
    );
    assertError(await request(`${server.url}/api/fileDownload/V2?id=junk`, { token: alice.token }), 400, "INVALID_ID");
    assertError(await request(`${server.url}/api/fileDownload/V2`, { token: alice.token }), 400, "PARAMETER_REQUIRED");
    assertError(await request(`${server.url}/api/fileDownload/V2?id=${idOf(image)}`), 401, "AUTHENTICATION_REQUIRED");
  });

  it("refuses non-members, unknown ids and bad parameters; pages", async () => {
    assertError(await cabinet(`group=1:${group.id}`, outsider.token), 403, "GROUP_NOT_JOINED");
    assertError(await cabinet(`entry=${idOf(image)}`, outsider.token), 403, "GROUP_NOT_JOINED");
    assertError(await cabinet(`entry=GROUP,1:${group.id},CABINET,1:99999`), 404, "FILE_NOT_FOUND");
    assertError(await cabinet(`entry=GROUP,1:${group.id},BOARD,1:1`), 404, "FILE_NOT_FOUND");
    assertError(await cabinet(""), 400, "PARAMETER_REQUIRED");
    assert.deepEqual(await titles(`group=1:${group.id}&max-results=1&start-index=1`), ["Photo"]);
    assertError(await cabinet(`group=1:${group.id}&start-index=-2`), 400, "INVALID_START_INDEX");
  });

  it("lists the cabinet and task folders of a group", async () => {
    const taskFolder = await server.factories.folder(group, "TASK", "Sprint");
    const files = await request(`${server.url}/api/gwCabinetFolder/V2?group=1:${group.id}`, { token: alice.token });
    assert.equal(files.status, 200);
    await assertValidAtom(files.text);
    assert.deepEqual(
      entriesOf(files.xml).map((e) => [atomText(e, "id"), atomText(e, "title")]),
      [[`1:${folderId}`, "Docs"]],
    );
    const tasks = await request(`${server.url}/api/gwTaskFolder/V2?group=1:${group.id}`, { token: alice.token });
    await assertValidAtom(tasks.text);
    assert.deepEqual(
      entriesOf(tasks.xml).map((e) => atomText(e, "id")),
      [`1:${taskFolder}`],
    );
    assertError(
      await request(`${server.url}/api/gwTaskFolder/V2?group=1:${group.id}`, { token: outsider.token }),
      403,
      "GROUP_NOT_JOINED",
    );
  });
  it("lists a group's comment attachments in ATTACH, downloadable by their attachment ids", async () => {
    const g = await server.factories.group([alice, bob]);
    const file = await addTestFile(server, g, alice, { fileName: "notes.txt" });
    const parent = idOf(file);
    const xml = `<feed ${CLIENT_NS}><id>${parent}</id><entry><summary>see attached</summary></entry></feed>`;
    const posted = await postMultipart(`${server.url}/api/comment/V2`, bob.token, [
      { name: "default", text: xml },
      { name: "file0", fileName: "会議.txt", type: "text/plain", size: 1000, fill: 3 },
    ]);
    assert.equal(posted.status, 200, posted.text);
    const answer = await cabinet(`group=1:${g.id}&cabinet-folder=ATTACH&embed-history=true`);
    assert.equal(answer.status, 200);
    await assertValidAtom(answer.text);
    const entries = entriesOf(answer.xml);
    assert.equal(entries.length, 1);
    const attachmentId = `${parent},COMMENT,1,ATTACHMENT,1`;
    assert.equal(atomText(entries[0]!, "id"), attachmentId);
    assert.equal(atomText(entries[0]!, "title"), "会議.txt");
    assert.equal(nsChild(entries[0]!, "cblCbnt", "fileSize")?.text, "1000");
    assert.equal(nsChild(entries[0]!, "cblCbnt", "histories"), undefined);
    const bytes = await download(`id=${encodeURIComponent(attachmentId)}`);
    assert.equal(bytes.status, 200);
    assert.equal((await bytes.arrayBuffer()).byteLength, 1000);
    // The files themselves stay out of ATTACH, and attachments out of the other lists.
    assert.deepEqual(await titles(`group=1:${g.id}`), ["notes.txt"]);
    const reader = await server.factories.user({ level: "read" });
    const readGroup = await server.factories.group([reader]);
    assertError(
      await cabinet(`group=1:${readGroup.id}&cabinet-folder=ATTACH`, reader.token),
      403,
      "ACCESS_LEVEL_INSUFFICIENT",
    );
  });

  it("takes likes and favorites on files", async () => {
    const body = (operation: string) =>
      `<feed ${CLIENT_NS}><cbl:operation type="${operation}"/><entry><id>${idOf(image)}</id></entry></feed>`;
    assert.equal((await request(`${server.url}/api/good/V2`, { token: bob.token, body: body("insert") })).status, 200);
    assert.equal((await request(`${server.url}/api/star/V2`, { token: bob.token, body: body("insert") })).status, 200);
    const likes = await request(`${server.url}/api/good/V2?id=${encodeURIComponent(idOf(image))}`, {
      token: alice.token,
    });
    assert.equal(likes.status, 200, likes.text);
    assert.match(likes.text, /Bob Baba/);
    const stars = await request(`${server.url}/api/star/V2`, { token: bob.token });
    assert.equal(stars.status, 200, stars.text);
    assert.ok(entriesOf(stars.xml).some((entry) => atomText(entry, "id") === idOf(image)));
  });
});
