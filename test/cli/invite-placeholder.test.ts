// `kairan member invite-placeholder`: the operator mails the person of an imported placeholder
// member a link to take it over; what is no placeholder, an address with an account and bad input
// are one line and exit 2.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { insertPlaceholderAccount } from "../../src/services/account/account-write.js";
import { openSqliteStore } from "../../src/store/sqlite/open.js";
import { linkPath, openOutbox } from "../support/account-mail.js";
import { kairan } from "./support.js";

// engines: sqlite only, because the command line is under test here (arguments, output, exit codes)
// over the --data directory it defaults to; the service it drives runs on both engines in
// test/web/placeholder-claim.test.ts.
describe("kairan member invite-placeholder", () => {
  let data: string;
  before(async () => {
    data = mkdtempSync(join(tmpdir(), "kairan-cli-placeholder-"));
    await kairan(data, "user", "add", "--name", "Ann", "--email", "ann@example.com", "--password", "pw");
    await kairan(data, "group", "add", "--name", "Old team", "--manager", "ann@example.com");
    const store = openSqliteStore(join(data, "kairan.sqlite"));
    try {
      await store.transaction(async (tx) => {
        const user = await insertPlaceholderAccount(
          tx,
          { name: "Taro", email: "taro@old.example", familyKana: "", givenKana: "" },
          Date.now(),
        );
        await tx.memberships.insertJoined({
          groupId: 1,
          userId: user.id,
          manager: false,
          notify: true,
          createdAt: Date.now(),
        });
      });
    } finally {
      await store.close();
    }
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  const base = ["member", "invite-placeholder", "--group", "1:1", "--public-url", "https://kairan.example"];

  it("mails a link to take the placeholder over, and prints the invitation without it", async () => {
    const sent = await kairan(data, ...base, "--user", "taro@old.example", "--email", "Taro@New.example");
    assert.equal(sent.status, 0, sent.stderr);
    const shown = sent.json<Record<string, unknown>>();
    assert.deepEqual(
      { invited: shown.invited, group: shown.group, email: shown.email },
      { invited: "placeholder", group: "1:1", email: "taro@new.example" },
    );
    assert.match(String(shown.id), /^1:\d+$/);
    const outbox = openOutbox({ storeConfig: { kind: "sqlite", file: join(data, "kairan.sqlite") } });
    try {
      const [mail] = await outbox.to("taro@new.example", "invitation");
      assert.ok(mail);
      const link = linkPath(mail.text_body, "https://kairan.example");
      assert.match(link, /^\/join\/1:\d+\/[A-Za-z0-9_-]{32}$/);
      assert.doesNotMatch(sent.stdout, new RegExp(link.split("/")[3] ?? "x"), "the secret is not printed");
    } finally {
      await outbox.close();
    }
  });

  it("refuses what is no placeholder, an address with an account, and bad input: one line, exit 2", async () => {
    for (const [args, pattern] of [
      [["--user", "ann@example.com", "--email", "x@example.com"], /NOT_A_PLACEHOLDER/],
      [["--user", "nobody@example.com", "--email", "x@example.com"], /NOT_A_PLACEHOLDER/],
      [["--user", "taro@old.example", "--email", "ann@example.com"], /CLAIM_ADDRESS_TAKEN/],
      [["--user", "taro@old.example", "--email", "not an address"], /INVALID_EMAIL/],
      [["--user", "taro@old.example", "--email", "x@example.com", "--expires", "tomorrow"], /--expires must be/],
      [["--user", "taro@old.example"], /--email/],
    ] as const) {
      const refused = await kairan(data, ...base, ...args);
      assert.equal(refused.status, 2, `${args.join(" ")}: ${refused.stdout}`);
      assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
      assert.match(refused.stderr, pattern);
    }
    const unknown = await kairan(
      data,
      "member",
      "invite-placeholder",
      "--group",
      "1:9",
      "--user",
      "taro@old.example",
      "--email",
      "x@example.com",
    );
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /GROUP_NOT_FOUND/);
  });
});
