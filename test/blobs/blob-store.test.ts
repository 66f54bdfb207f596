import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { after, before, describe, it } from "node:test";
import { type BlobStore, BlobStoreError, newBlobKey } from "../../src/blobs/blob-store.js";
import { openBlobStore } from "../../src/blobs/open.js";
import type { BlobStoreConfig } from "../../src/config/config.js";
import { type TestS3, startTestS3 } from "../support/s3.js";

// One contract, two implementations: the local directory and an S3-compatible bucket (s3rver, a
// real S3 REST server in this process). What is stored is checked where it really is: files
// under <data>/blobs, objects listed in the bucket, temporary files under <data>/tmp.

const MB = 1024 * 1024;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
}

/** `size` bytes of a repeating pattern, generated in 64 KB chunks: never whole in memory. */
function generated(size: number): Readable {
  return Readable.from(
    (function* () {
      for (let offset = 0; offset < size; offset += 64 * 1024) {
        const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, size - offset));
        for (let i = 0; i < chunk.length; i++) chunk[i] = ((offset + i) * 31 + 7) & 0xff;
        yield chunk;
      }
    })(),
  );
}

async function sha256(stream: Readable): Promise<{ hash: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { hash: hash.digest("hex"), size };
}

async function readAll(stream: Readable | undefined): Promise<string> {
  assert.ok(stream, "the key holds bytes");
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

interface Implementation {
  readonly name: string;
  config(): BlobStoreConfig;
  /** Keys stored, as seen in the directory or the bucket. */
  stored(dataDir: string, config: BlobStoreConfig): Promise<string[]>;
}

let s3: TestS3;
const implementations: Implementation[] = [
  {
    name: "local directory",
    config: () => ({ kind: "local" }),
    stored: async (dataDir) => filesUnder(join(dataDir, "blobs")),
  },
  {
    name: "S3-compatible bucket",
    config: () => s3.config(),
    stored: async (_dataDir, config) => {
      const prefix = config.kind === "s3" ? config.prefix : "";
      return (await s3.list(prefix)).map((name) => name.slice(prefix.length + 1));
    },
  },
];

before(async () => {
  s3 = await startTestS3();
});
after(() => s3.close());

for (const implementation of implementations) {
  describe(`blob store contract: ${implementation.name}`, () => {
    let dataDir: string;
    let config: BlobStoreConfig;
    let blobs: BlobStore;
    const stored = () => implementation.stored(dataDir, config);
    const temps = () => filesUnder(join(dataDir, "tmp"));
    async function put(key: string, data: Readable | string): Promise<void> {
      const temp = await blobs.createTemp();
      await pipeline(typeof data === "string" ? Readable.from([Buffer.from(data)]) : data, temp.stream);
      await blobs.commit(temp, key);
    }

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "kairan-blobs-"));
      config = implementation.config();
      blobs = await openBlobStore(config, dataDir);
    });
    after(async () => {
      await blobs.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("commits a written temporary file under its key, readable, with no temporary file left", async () => {
      const key = newBlobKey();
      await put(key, "hello, blobs");
      assert.equal(await readAll(await blobs.open(key)), "hello, blobs");
      assert.ok((await stored()).includes(key));
      assert.deepEqual(temps(), []);
    });

    it("stores an empty file", async () => {
      const key = newBlobKey();
      await put(key, "");
      assert.equal(await readAll(await blobs.open(key)), "");
    });

    it("streams a 16 MB object in and out unchanged (S3: a multipart upload)", async () => {
      const key = newBlobKey();
      const size = 16 * MB + 3;
      await put(key, generated(size));
      const out = await blobs.open(key);
      assert.ok(out);
      assert.deepEqual(await sha256(out), await sha256(generated(size)));
      assert.deepEqual(temps(), []);
    });

    it("discards a temporary file: nothing stored, nothing left, safe to repeat", async () => {
      const before = await stored();
      const temp = await blobs.createTemp();
      temp.stream.write(Buffer.alloc(1000));
      await blobs.discard(temp);
      await blobs.discard(temp);
      assert.deepEqual(await stored(), before);
      assert.deepEqual(temps(), []);
    });

    it("refuses to commit a write that failed half-way; discard then leaves nothing", async () => {
      const before = await stored();
      const temp = await blobs.createTemp();
      const broken = new Readable({ read() {} });
      broken.push(Buffer.alloc(64 * 1024, 1));
      setImmediate(() => broken.destroy(new Error("the client went away")));
      await assert.rejects(pipeline(broken, temp.stream), /went away/);
      await assert.rejects(blobs.commit(temp, newBlobKey()));
      await blobs.discard(temp);
      assert.deepEqual(await stored(), before);
      assert.deepEqual(temps(), []);
    });

    it("removes a key; a missing key is not an error and opens as undefined", async () => {
      const key = newBlobKey();
      await put(key, "to be removed");
      await blobs.remove(key);
      assert.equal(await blobs.open(key), undefined);
      assert.ok(!(await stored()).includes(key));
      await blobs.remove(key);
      assert.equal(await blobs.open(newBlobKey()), undefined);
    });

    it("keeps a committed key whole when the same key is committed again", async () => {
      const key = newBlobKey();
      await put(key, "first");
      await put(key, "second version");
      assert.equal(await readAll(await blobs.open(key)), "second version");
    });

    it("refuses keys that are not keys (no path or object name built from them)", async () => {
      for (const bad of ["../escape", "a/b", "", ".hidden"]) {
        await assert.rejects(blobs.open(bad), /invalid blob key/);
        await assert.rejects(blobs.remove(bad), /invalid blob key/);
        const temp = await blobs.createTemp();
        temp.stream.end("x");
        await assert.rejects(blobs.commit(temp, bad), /invalid blob key/);
        await blobs.discard(temp);
      }
      assert.deepEqual(temps(), []);
    });
  });
}

describe("S3 blob store: settings checked at open", () => {
  it("names the bucket and the reason when it does not exist or refuses the keys", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "kairan-blobs-"));
    try {
      const missing = { ...s3.config(), bucket: "no-such-bucket" };
      await assert.rejects(openBlobStore(missing, dataDir), (error: unknown) => {
        assert.ok(error instanceof BlobStoreError);
        assert.match(error.message, /s3:\/\/no-such-bucket at http:\/\/127\.0\.0\.1:\d+: no such bucket/);
        return true;
      });
      // s3rver knows one access key and refuses others (it does not check the secret itself).
      const wrongKeys = { ...s3.config(), credentials: { accessKeyId: "nobody", secretAccessKey: "S3RVER" } };
      await assert.rejects(openBlobStore(wrongKeys, dataDir), /cannot use s3:\/\/kairan-test.*access denied/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("names objects <prefix>/<key>", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "kairan-blobs-"));
    const config = s3.config("team/a");
    const blobs = await openBlobStore(config, dataDir);
    try {
      const temp = await blobs.createTemp();
      temp.stream.end("x");
      await blobs.commit(temp, "abc123");
      assert.deepEqual(await s3.list("team/a"), ["team/a/abc123"]);
    } finally {
      await blobs.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
