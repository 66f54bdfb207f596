// A person's picture over real HTTP: uploaded on the account page, normalised to a square PNG,
// shown beside their topics and comments to the members of their groups, hidden from everyone
// else; every refusal (size, pixels, not an image, no token) changes nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { crc32 } from "node:zlib";
import sharp from "sharp";
import type { Group } from "../../src/domain/group.js";
import { formatPair } from "../../src/domain/item-id.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** A real PNG of the given size (red unless another green is given). */
function png(width: number, height: number, green = 40): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: green, b: 40 } } })
    .png()
    .toBuffer();
}

/** A small PNG whose header claims other dimensions (its CRC fixed): what a decoder reads first. */
function claimingSize(image: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(image);
  copy.writeUInt32BE(width, 16);
  copy.writeUInt32BE(height, 20);
  copy.writeUInt32BE(crc32(copy.subarray(12, 29)), 29);
  return copy;
}

describeEachBackend("web account picture", (backend) => {
  let server: TestServer;
  let dana: TestUser;
  let eve: TestUser;
  let group: Group;
  let danaWeb: WebClient;
  let eveWeb: WebClient;
  let strangerWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    dana = await server.factories.user({ name: "Dana Doi" });
    eve = await server.factories.user({ name: "Eve Endo" });
    const stranger = await server.factories.user({ name: "Stranger" });
    group = await server.factories.group([dana, eve]);
    await server.factories.group([stranger]);
    danaWeb = new WebClient(server.url);
    eveWeb = new WebClient(server.url);
    strangerWeb = new WebClient(server.url);
    await danaWeb.signIn(dana.email);
    await eveWeb.signIn(eve.email);
    await strangerWeb.signIn(stranger.email);
  });
  after(() => server.close());

  const upload = async (bytes: Uint8Array, name = "me.png", csrf?: string) => {
    await danaWeb.get("/account");
    const form = new FormData();
    form.set("_csrf", csrf ?? danaWeb.csrf());
    form.set("picture", new Blob([bytes]), name);
    return danaWeb.postMultipart("/account/picture", form);
  };
  const storedEtag = () => server.store.read(async (tx) => (await tx.userPictures.find(dana.id))?.etag);
  const pictureUrl = async () => {
    const page = await danaWeb.get("/account");
    const src = /<img class="avatar" src="([^"]+)"/.exec(page.html)?.[1];
    assert.ok(src, "the account page shows the picture");
    return src.replace(/&amp;/g, "&");
  };

  it("stores an upload as a square PNG and serves it with an ETag to the owner and the group", async () => {
    const answer = await upload(await png(640, 480));
    assert.equal(answer.status, 303, answer.html.slice(0, 300));
    assert.equal(answer.location, "/account?saved=picture#picture");
    const page = await danaWeb.get("/account?saved=picture");
    await assertValidHtml(page.html, "account page with a picture");
    assert.match(page.html, /Remove picture/);
    const url = await pictureUrl();
    assert.match(url, new RegExp(`^/users/${formatPair(dana.id)}/picture\\?v=`));
    const own = await danaWeb.get(url);
    assert.equal(own.status, 200);
    assert.equal(own.headers.get("content-type"), "image/png");
    assert.equal(own.headers.get("cache-control"), "private, max-age=3600");
    const etag = own.headers.get("etag") ?? "";
    assert.equal(etag, `"${await storedEtag()}"`);
    const bytes = Buffer.from(await (await fetch(`${server.url}${url}`, { headers: cookieOf(danaWeb) })).arrayBuffer());
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ["png", LIMITS.pictureSidePx, LIMITS.pictureSidePx]);
    assert.equal((await eveWeb.get(url)).status, 200, "a member of a shared group sees it");
    assert.equal((await eveWeb.get(url, { "if-none-match": etag })).status, 304);
  });

  it("hides the picture from someone who shares no group, as if there were no such person", async () => {
    const url = await pictureUrl();
    const answer = await strangerWeb.get(url);
    assert.equal(answer.status, 404);
    assert.equal((await strangerWeb.get(`/users/${formatPair(999_999)}/picture`)).status, 404);
    assert.equal((await strangerWeb.get("/users/nobody/picture")).status, 404);
    assert.equal((await new WebClient(server.url).get(url)).status, 303, "signed out: the sign-in page");
  });

  it("shows the picture beside the owner's topic and comments, and initials for those without one", async () => {
    const topic = await server.factories.topic(group, dana, { title: "Pictures" });
    await server.factories.comment(topic, dana, { body: "mine" });
    await server.factories.comment(topic, eve, { body: "hers" });
    const page = await eveWeb.get(`/g/${formatPair(group.id)}/board/${formatPair(topic.id)}`);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "topic with pictures");
    const src = (await pictureUrl()).replace(/&/g, "&amp;");
    const head = /<p class="meta">([\s\S]*?)<\/p>/.exec(page.html)?.[1] ?? "";
    assert.ok(
      head.includes(`<img class="avatar" src="${src}" alt="" width="32" height="32"><strong>Dana Doi</strong>`),
    );
    const comment1 = /id="comment-1"[\s\S]*?<\/header>/.exec(page.html)?.[0] ?? "";
    assert.ok(comment1.includes(`<img class="avatar" src="${src}"`), "beside her comment");
    const comment2 = /id="comment-2"[\s\S]*?<\/header>/.exec(page.html)?.[0] ?? "";
    assert.match(
      comment2,
      /<span class="avatar avatar-initial" aria-hidden="true">E<\/span><strong class="author">Eve Endo/,
    );
  });

  it("takes a picture of exactly the byte limit and refuses one byte more, keeping the old one", async () => {
    const before = await storedEtag();
    const image = await png(300, 300, 160);
    const atLimit = Buffer.concat([image, Buffer.alloc(LIMITS.pictureMaxBytes - image.length)]);
    const accepted = await upload(atLimit);
    assert.equal(accepted.status, 303, accepted.html.slice(0, 300));
    const changed = await storedEtag();
    assert.notEqual(changed, before, "a new picture, a new ETag");
    const refused = await upload(Buffer.concat([atLimit, Buffer.alloc(1)]));
    assert.equal(refused.status, 413);
    assert.match(refused.html, /The picture is larger than 10485760 bytes\./);
    assert.equal(await storedEtag(), changed, "nothing changed");
  });

  it("refuses what is not a picture, and pictures of too many pixels, before decoding them", async () => {
    const before = await storedEtag();
    const image = await png(40, 30);
    const cases: [Uint8Array, string, number, RegExp][] = [
      [
        Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
        "x.svg",
        400,
        /must be a PNG, JPEG, GIF or WebP image/,
      ],
      [Buffer.from("just text"), "x.png", 400, /must be a PNG, JPEG, GIF or WebP image/],
      [image.subarray(0, 40), "cut.png", 400, /must be a PNG, JPEG, GIF or WebP image/],
      [new Uint8Array(0), "", 400, /Choose a picture to upload\./],
      [claimingSize(image, 10_000, 5_001), "huge.png", 400, /more than 50000000 pixels \(10000 × 5001\)/],
      // At the pixel limit the check passes; the made-up header then fails to decode.
      [claimingSize(image, 10_000, 5_000), "big.png", 400, /must be a PNG, JPEG, GIF or WebP image/],
    ];
    for (const [bytes, name, status, message] of cases) {
      const answer = await upload(bytes, name);
      assert.equal(answer.status, status, name);
      assert.match(answer.html, message, name);
      assert.match(answer.html, /id="picture-error"/);
      assert.equal(await storedEtag(), before, `${name}: nothing changed`);
    }
  });

  it("checks the form's token before reading the picture, and refuses a second file", async () => {
    const before = await storedEtag();
    const forged = await upload(await png(50, 50), "me.png", "forged");
    assert.equal(forged.status, 403);
    await danaWeb.get("/account");
    const two = new FormData();
    two.set("_csrf", danaWeb.csrf());
    two.append("picture", new Blob([await png(20, 20)]), "a.png");
    two.append("picture", new Blob([await png(20, 20)]), "b.png");
    const refused = await danaWeb.postMultipart("/account/picture", two);
    assert.equal(refused.status, 400);
    assert.match(refused.html, /The form sends one file, named picture/);
    const plain = await danaWeb.post("/account/picture", {});
    assert.equal(plain.status, 400, "a form without a file");
    assert.equal(await storedEtag(), before);
  });

  it("removes the picture: the initial is shown again and the picture is gone", async () => {
    const url = await pictureUrl();
    const removed = await danaWeb.post("/account/picture/remove", {});
    assert.equal(removed.status, 303);
    const page = await danaWeb.get("/account");
    assert.match(page.html, /<span class="avatar avatar-initial" aria-hidden="true">D<\/span>/);
    assert.equal((await eveWeb.get(url)).status, 404);
    assert.equal(await storedEtag(), undefined);
  });
});

function cookieOf(web: WebClient): Record<string, string> {
  return { cookie: `kairan_session=${web.cookie("kairan_session") ?? ""}` };
}
