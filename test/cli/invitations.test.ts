// `kairan member invitations`: an operator sees a group's invitations, those with a link made in
// the web interface among them, without the link itself (only its hash is kept).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { hashToken } from "../../src/auth/token.js";
import { openSqliteStore } from "../../src/store/sqlite/open.js";
import { kairan } from "./support.js";

// engines: sqlite only, because the command line is under test here (arguments, output, exit codes)
// over the --data directory it defaults to; the services and queries it drives run on both engines
// in test/http, test/web and test/store.
describe("kairan member invitations", () => {
  let data: string;
  before(() => {
    data = mkdtempSync(join(tmpdir(), "kairan-cli-invitations-"));
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  it("lists address, end and whether a link exists; an unknown group is one line and exit 2", async () => {
    kairan(data, "user", "add", "--name", "Ann", "--email", "ann@example.com", "--password", "pw");
    kairan(data, "group", "add", "--name", "Ops", "--manager", "ann@example.com");
    const expires = "2027-01-01T00:00:00.000Z";
    kairan(
      data,
      "member",
      "invite",
      "--group",
      "1:1",
      "--email",
      "cy@example.com",
      "--label",
      "Cy",
      "--expires",
      "2027-01-01T00:00:00Z",
    );
    const store = openSqliteStore(join(data, "kairan.sqlite"));
    try {
      await store.transaction((tx) =>
        tx.memberships.insertInvite({
          groupId: 1,
          email: "dee@example.com",
          label: "dee@example.com",
          expiresAt: Date.parse(expires),
          tokenHash: hashToken("a-secret"),
          createdAt: Date.now(),
        }),
      );
    } finally {
      await store.close();
    }
    const listed = kairan(data, "member", "invitations", "--group", "1:1");
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(listed.json(), [
      { invitation: "1:2", group: "1:1", email: "cy@example.com", expires, link: false },
      { invitation: "1:3", group: "1:1", email: "dee@example.com", expires, link: true },
    ]);
    assert.doesNotMatch(listed.stdout, /a-secret|[0-9a-f]{64}/, "neither the secret nor its hash is printed");
    const unknown = kairan(data, "member", "invitations", "--group", "1:9");
    assert.equal(unknown.status, 2);
    assert.equal(unknown.stderr.trim().split("\n").length, 1);
    assert.match(unknown.stderr, /GROUP_NOT_FOUND/);
  });
});
