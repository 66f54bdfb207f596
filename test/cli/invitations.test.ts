// `kairan member invitations`: an operator sees a group's invitations, those with a link made in
// the web interface among them, without the link itself (only its hash is kept).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { hashToken } from "../../src/auth/token.js";
import { openSqliteStore } from "../../src/store/sqlite/open.js";
import { linkPath, openOutbox } from "../support/account-mail.js";
import { kairan } from "./support.js";

// engines: sqlite only, because the command line is under test here (arguments, output, exit codes)
// over the --data directory it defaults to; the services and queries it drives run on both engines
// in test/http, test/web and test/store.
describe("kairan member invitations", () => {
  let data: string;
  before(async () => {
    data = mkdtempSync(join(tmpdir(), "kairan-cli-invitations-"));
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  it("lists address, end and whether a link exists; an unknown group is one line and exit 2", async () => {
    await kairan(data, "user", "add", "--name", "Ann", "--email", "ann@example.com", "--password", "pw");
    await kairan(data, "group", "add", "--name", "Ops", "--manager", "ann@example.com");
    const expires = "2027-01-01T00:00:00.000Z";
    await kairan(
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
    const listed = await kairan(data, "member", "invitations", "--group", "1:1");
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(listed.json(), [
      { invitation: "1:2", group: "1:1", email: "cy@example.com", expires, link: false, sent: null },
      { invitation: "1:3", group: "1:1", email: "dee@example.com", expires, link: true, sent: null },
    ]);
    assert.doesNotMatch(listed.stdout, /a-secret|[0-9a-f]{64}/, "neither the secret nor its hash is printed");
    const unknown = await kairan(data, "member", "invitations", "--group", "1:9");
    assert.equal(unknown.status, 2);
    assert.equal(unknown.stderr.trim().split("\n").length, 1);
    assert.match(unknown.stderr, /GROUP_NOT_FOUND/);
  });

  it("mails a join link with --send and again with resend (a new link each time); refuses what it cannot send", async () => {
    await kairan(data, "group", "add", "--name", "Mail <team> & co", "--manager", "ann@example.com");
    const base = ["--group", "1:2", "--public-url", "https://kairan.example", "--locale", "en"];
    const sent = await kairan(
      data,
      "member",
      "invite",
      ...base,
      "--email",
      "Eli@Example.com",
      "--label",
      "Eli",
      "--send",
    );
    assert.equal(sent.status, 0, sent.stderr);
    const shown = sent.json<Record<string, unknown>>();
    assert.equal(shown.invited, "member");
    assert.equal(shown.status, "INVITE");
    assert.match(String(shown.sent), /^\d{4}-\d\d-\d\dT/);
    assert.equal(Date.parse(String(shown.expires)) - Date.parse(String(shown.sent)), 14 * 24 * 60 * 60 * 1000);
    const outbox = openOutbox({ storeConfig: { kind: "sqlite", file: join(data, "kairan.sqlite") } });
    try {
      const [first] = await outbox.to("eli@example.com", "invitation");
      assert.ok(first);
      assert.match(first.text_body, /^You are invited to join the group "Mail <team> & co" on Kairan\./);
      assert.match(first.html_body ?? "", /Mail &#60;team&#62; &#38; co/);
      const firstLink = linkPath(first.text_body, "https://kairan.example");
      assert.match(firstLink, /^\/join\/1:\d+\/[A-Za-z0-9_-]{32}$/);
      assert.doesNotMatch(sent.stdout, new RegExp(firstLink.split("/")[3] ?? "x"), "the secret is not printed");
      const id = String(shown.id);
      const again = await kairan(
        data,
        "member",
        "resend",
        "--group",
        "1:2",
        "--member",
        id,
        "--public-url",
        "https://kairan.example",
      );
      assert.equal(again.status, 0, again.stderr);
      assert.equal(again.json<Record<string, unknown>>().resent, "member");
      const mails = await outbox.to("eli@example.com", "invitation");
      assert.equal(mails.length, 2);
      assert.notEqual(linkPath(mails[1]?.text_body ?? "", "https://kairan.example"), firstLink);
      const listed = (await kairan(data, "member", "invitations", "--group", "1:2")).json<
        { sent: string | null; link: boolean }[]
      >();
      assert.equal(listed[0]?.link, true);
      assert.match(listed[0]?.sent ?? "", /^\d{4}-/);
    } finally {
      await outbox.close();
    }
    for (const [args, pattern] of [
      [["--email", "eli@example.com", "--label", "Eli"], /ALREADY_INVITED/],
      [["--email", "ann@example.com", "--label", "Ann"], /ALREADY_MEMBER/],
      [["--email", "ünï@example.com", "--label", "U"], /INVALID_EMAIL/],
    ] as const) {
      const refused = await kairan(data, "member", "invite", ...base, ...args, "--send");
      assert.equal(refused.status, 2, refused.stdout);
      assert.equal(refused.stderr.trim().split("\n").length, 1);
      assert.match(refused.stderr, pattern);
    }
    const unknown = await kairan(data, "member", "resend", "--group", "1:2", "--member", "1:999");
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /MEMBER_NOT_FOUND/);
    const bad = await kairan(data, "member", "resend", "--group", "1:2", "--member", "x");
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--member must be a member id/);
  });
});
