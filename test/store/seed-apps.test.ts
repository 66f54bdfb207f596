// A seed file's applications, with the legacy-signing mark of docs/operations.md ("legacySigning").
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { loadSeed } from "../../src/seed/load.js";
import { SeedError, validateSeed } from "../../src/seed/validate.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("seeded applications", (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(backend);
  });
  after(() => server.close());

  it("marks an application for legacy signing when the seed says so, and no other", async () => {
    const app = (ref: string, extra: object = {}) => ({
      ref,
      name: ref,
      consumerKey: `${ref}-key`,
      consumerSecret: `${ref}-secret`,
      ...extra,
    });
    await loadSeed(server, validateSeed({ apps: [app("old", { legacySigning: true }), app("new")] }));
    const legacy = (key: string) =>
      server.store.read(async (tx) => (await tx.apps.findByConsumerKey(key))?.legacySigning);
    assert.equal(await legacy("old-key"), true);
    assert.equal(await legacy("new-key"), false);
  });

  it("refuses a legacySigning that is not true or false", () => {
    assert.throws(
      () =>
        validateSeed({ apps: [{ ref: "x", name: "x", consumerKey: "k", consumerSecret: "s", legacySigning: "yes" }] }),
      (error: unknown) => error instanceof SeedError && /apps\[0\]\.legacySigning/.test(error.message),
    );
  });
});
