import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import sharp from "sharp";
import type { Group } from "../../src/domain/group.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { nsChild, entriesOf, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

/**
 * A solid-colour PNG: tens of millions of pixels compress to a few hundred kilobytes, so the
 * boundary costs little to send (decoding it is what the limit bounds).
 */
function solidPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

// 3,561 × 14,041 is 50,000,001: one pixel above the limit; 5,000 × 10,000 is the limit itself.
const OVER = { width: 3561, height: 14041 };
const AT = { width: 5000, height: 10000 };

describeEachBackend("shared-file thumbnails: the pixel limit every decode uses", (backend) => {
  let server: TestServer;
  let bob: TestUser;
  let group: Group;
  let web: WebClient;

  before(async () => {
    assert.equal(OVER.width * OVER.height, LIMITS.imageMaxPixels + 1, "the test's boundary follows the limit");
    assert.equal(AT.width * AT.height, LIMITS.imageMaxPixels);
    server = await startTestServer(backend);
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([bob]);
    web = new WebClient(server.url);
    await web.signIn(bob.email);
  });
  after(() => server.close());

  /** Uploads through the files page's form, as a browser does; the stored file of that title. */
  async function upload(title: string, bytes: Buffer) {
    const g = `/g/1:${group.id}`;
    await web.get(`${g}/files`);
    const form = new FormData();
    form.set("_csrf", web.csrf());
    form.set("title", title);
    form.append("file", new Blob([bytes]), `${title}.png`);
    const answer = await web.postMultipart(`${g}/files`, form);
    assert.equal(answer.status, 303, answer.html.slice(0, 400));
    const files = await server.store.read((tx) => tx.files.list(group.id, { kind: "all" }, { offset: 0, limit: 100 }));
    return files.find((f) => f.title === title)!;
  }

  /** What the API's cabinet feed says of a file's thumbnail. */
  async function thumbnailExists(title: string): Promise<string | undefined> {
    const answer = await request(`${server.url}/api/gwCabinet/V2?group=1:${group.id}`, { token: bob.token });
    const entry = entriesOf(answer.xml).find((e) => nsChild(e, "cblCbnt", "fileName")?.text === `${title}.png`);
    return nsChild(entry!, "cblCbnt", "thumbnailExists")?.text;
  }

  it("stores an image one pixel above the limit without a thumbnail; the upload succeeds", async () => {
    const file = await upload("over", await solidPng(OVER.width, OVER.height));
    assert.equal(file.current.thumbnailKey, null, "no thumbnail decoded");
    assert.deepEqual([file.current.width, file.current.height], [OVER.width, OVER.height], "the size is still read");
    assert.equal(await thumbnailExists("over"), "false");
    const thumbnail = await request(
      `${server.url}/api/fileDownload/V2?id=GROUP,1:${group.id},CABINET,1:${file.id}&thumbnail=true`,
      { token: bob.token },
    );
    assert.equal(thumbnail.status, 404);
  });

  it("makes a thumbnail for an image of exactly the limit", async () => {
    const file = await upload("at", await solidPng(AT.width, AT.height));
    assert.notEqual(file.current.thumbnailKey, null);
    assert.equal(await thumbnailExists("at"), "true");
    const thumbnail = await fetch(
      `${server.url}/api/fileDownload/V2?id=GROUP,1:${group.id},CABINET,1:${file.id}&thumbnail=true`,
      { headers: { authorization: `Bearer ${bob.token}` } },
    );
    assert.equal(thumbnail.status, 200);
    const meta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    assert.deepEqual([meta.width, meta.height], [80, 160]);
  });
});
