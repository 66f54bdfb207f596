// `kairan user set-password|rename|disable|enable|reset-password|unlock` against the database a running server
// uses (SQLite file, or PostgreSQL when configured): the server sees each change with its next
// request, feed cache and compiled token lookup included. The commands open the database as a
// process of their own would (runCli in this process, its own connection: the server learns of a
// change only through the database); the first disable and set-password run as real processes.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { runKairanAsync } from "../support/cli.js";
import { type CliRunner, runKairanHere } from "../support/cli-in-process.js";
import type { TestUser } from "../support/factories.js";
import { atomText, entriesOf, request } from "../support/http.js";
import { linkPath, openOutbox } from "../support/account-mail.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

describeEachBackend("kairan user account commands", (backend) => {
  let server: TestServer;
  let ann: TestUser;
  let board: string;
  /**
   * The command line over the server's database, in this process; as `node bin/kairan.js` with
   * `process` (without blocking the server, which runs in this process).
   */
  const kairan = async (args: readonly string[], input = "", run: CliRunner = runKairanHere) => {
    const where =
      server.storeConfig.kind === "postgres" ? ["--database", server.storeConfig.url] : ["--data", server.dataDir];
    return run(["user", ...args, ...where, "--log-level", "silent"], {}, input);
  };
  const signIn = async (email: string, password: string) => {
    const web = new WebClient(server.url);
    await web.get("/signin");
    const answer = await web.post("/signin", { email, password });
    return { web, answer };
  };

  before(async () => {
    server = await startTestServer(backend, { limits: { loginLimitAccount: "2" } });
    ann = await server.factories.user({ name: "Ann", email: "ann@example.com" });
    const group = await server.factories.group([ann]);
    await server.factories.topic(group, ann, { title: "Ann's topic" });
    board = `${server.url}/api/board/V2?group=1:${group.id}`;
  });
  after(() => server?.close());

  it("disable stops the user's token (feed cache hits included) and sessions at once; enable brings the token back", async () => {
    const { web } = await signIn(ann.email, "password");
    assert.equal((await web.get("/")).status, 200);
    // Three reads: the third is answered from the feed cache.
    for (let n = 0; n < 3; n++) assert.equal((await request(board, { token: ann.token })).status, 200);

    // A process of its own, as an operator runs it beside the server.
    const disabled = await kairan(["disable", "ANN@example.com"], "", runKairanAsync);
    assert.equal(disabled.status, 0, disabled.stderr);
    assert.deepEqual(JSON.parse(disabled.stdout), {
      disabled: "user",
      id: `1:${ann.id}`,
      name: "Ann",
      email: "ann@example.com",
      changed: true,
      sessionsEnded: 1,
    });
    const refused = await request(board, { token: ann.token });
    assert.equal(refused.status, 401);
    assert.match(refused.text, /code="TOKEN_REJECTED"/);
    const page = await web.get("/");
    assert.equal(page.status, 303, "the session is gone");
    // Refused like a wrong password: nobody learns that the account exists or that the password was right.
    const { answer } = await signIn(ann.email, "password");
    assert.equal(answer.status, 200);
    assert.match(answer.html, /The e-mail address or the password is wrong\./);
    assert.equal(
      JSON.parse((await kairan(["disable", ann.email])).stdout).changed,
      false,
      "disabling twice changes nothing",
    );
    const listed = JSON.parse((await kairan(["list"])).stdout) as Array<{ email: string; disabled?: boolean }>;
    assert.deepEqual(
      listed.map((user) => [user.email, user.disabled]),
      [["ann@example.com", true]],
    );

    const enabled = await kairan(["enable", ann.email]);
    assert.equal(enabled.status, 0, enabled.stderr);
    assert.equal(JSON.parse(enabled.stdout).changed, true);
    assert.equal((await request(board, { token: ann.token })).status, 200, "the token works again");
    assert.equal((await web.get("/")).status, 303, "the ended session stays ended");
    assert.equal((await signIn(ann.email, "password")).answer.status, 303, "signs in again");
    assert.equal(JSON.parse((await kairan(["list"])).stdout)[0].disabled, undefined, "listed as in use again");
  });

  it("set-password reads standard input, takes effect at once and ends the user's sessions", async () => {
    const { web } = await signIn(ann.email, "password");
    assert.equal((await web.get("/")).status, 200);
    // A process of its own: the password comes through a real pipe on its standard input.
    const changed = await kairan(["set-password", ann.email, "--password-stdin"], "new secret 漢字\n", runKairanAsync);
    assert.equal(changed.status, 0, changed.stderr);
    assert.deepEqual(JSON.parse(changed.stdout), {
      updated: "password",
      id: `1:${ann.id}`,
      name: "Ann",
      email: "ann@example.com",
      // This one, and the one the previous test opened last.
      sessionsEnded: 2,
    });
    assert.equal((await web.get("/")).status, 303, "the old session is gone");
    assert.equal((await signIn(ann.email, "password")).answer.status, 200, "the old password is refused");
    assert.equal((await signIn(ann.email, "new secret 漢字")).answer.status, 303, "the new one works");
    assert.equal((await request(board, { token: ann.token })).status, 200, "tokens are not sessions: they stay");
  });

  it("reset-password mails the user a reset link, or prints it with --print; the link works on the server", async () => {
    const outbox = openOutbox(server);
    try {
      const base = ["--public-url", server.url, "--locale", "en"];
      const mailed = await kairan(["reset-password", "ann@example.com", ...base]);
      assert.equal(mailed.status, 0, mailed.stderr);
      const shown = JSON.parse(mailed.stdout) as Record<string, string>;
      assert.equal(shown.sent, "password-reset");
      assert.equal(shown.email, "ann@example.com");
      assert.match(shown.expires ?? "", /^\d{4}-\d\d-\d\dT/);
      const [mail] = await outbox.to("ann@example.com", "password-reset");
      assert.ok(mail);
      assert.doesNotMatch(mailed.stdout, /password\/reset/, "the mailed link is not printed");
      assert.equal((await new WebClient(server.url).get(linkPath(mail.text_body, server.url))).status, 200);
      const printed = await kairan(["reset-password", "ann@example.com", "--print", ...base]);
      assert.equal(printed.status, 0, printed.stderr);
      const link = (JSON.parse(printed.stdout) as Record<string, string>).link ?? "";
      assert.ok(link.startsWith(`${server.url}/password/reset/`), link);
      assert.equal((await new WebClient(server.url).get(link.slice(server.url.length))).status, 200);
      assert.equal((await outbox.to("ann@example.com", "password-reset")).length, 1, "--print mails nothing");
      const unknown = await kairan(["reset-password", "nobody@example.com"]);
      assert.equal(unknown.status, 2);
      assert.match(unknown.stderr, /USER_NOT_FOUND/);
    } finally {
      await outbox.close();
    }
  });

  it("unlock forgets the account's failed sign-ins", async () => {
    for (let n = 0; n < 2; n++) assert.equal((await signIn(ann.email, "wrong")).answer.status, 200);
    assert.equal((await signIn(ann.email, "new secret 漢字")).answer.status, 429, "throttled, right password or not");
    const unlocked = await kairan(["unlock", ann.email]);
    assert.equal(unlocked.status, 0, unlocked.stderr);
    assert.equal(JSON.parse(unlocked.stdout).unlocked, "user");
    assert.equal((await signIn(ann.email, "new secret 漢字")).answer.status, 303);
  });

  it("rename changes the name every feed shows at once, the cached feed included", async () => {
    for (let n = 0; n < 3; n++) await request(board, { token: ann.token });
    const renamed = await kairan(["rename", ann.email, "--name", "Ann Aoki", "--family-kana", "あおき"]);
    assert.equal(renamed.status, 0, renamed.stderr);
    assert.deepEqual(JSON.parse(renamed.stdout), {
      renamed: "user",
      id: `1:${ann.id}`,
      name: "Ann Aoki",
      email: "ann@example.com",
      familyKana: "あおき",
      givenKana: "",
    });
    const feed = await request(board, { token: ann.token });
    const author = entriesOf(feed.xml)[0]?.children.find((child) => child.local === "author");
    assert.equal(author && atomText(author, "name"), "Ann Aoki");
  });

  it("refuses bad input with exit status 2 and one first line naming the cause, changing nothing", async () => {
    const cases: Array<[string[], string, RegExp]> = [
      [
        ["disable"],
        "",
        /^kairan: (?:user [a-z-]+: )?give exactly one e-mail address \(got 0 arguments\); run 'kairan user disable --help' for its options$/,
      ],
      [
        ["enable", "a@example.com", "b@example.com"],
        "",
        /^kairan: (?:user [a-z-]+: )?user enable: unexpected argument "b@example\.com"; run 'kairan user enable --help' for its options$/,
      ],
      [
        ["disable", "nobody@example.com"],
        "",
        /^kairan: (?:user [a-z-]+: )?No user has the e-mail address nobody@example.com\. \(USER_NOT_FOUND\)$/,
      ],
      [["unlock", "nobody@example.com"], "", /\(USER_NOT_FOUND\)$/],
      [
        ["set-password", ann.email],
        "pw\n",
        /^kairan: (?:user [a-z-]+: )?--password-stdin is required: the password is read from standard input/,
      ],
      [["set-password", ann.email, "--password", "pw"], "", /^kairan: (?:user [a-z-]+: )?Unknown option '--password'/],
      [
        ["set-password", ann.email, "--password-stdin"],
        "\n",
        /^kairan: (?:user [a-z-]+: )?The password is empty\. \(PASSWORD_REQUIRED\)$/,
      ],
      [
        ["set-password", ann.email, "--password-stdin"],
        "one\ntwo\n",
        /^kairan: (?:user [a-z-]+: )?the password on standard input must be a single line$/,
      ],
      [
        ["set-password", ann.email, "--password-stdin"],
        "x".repeat(1025),
        /^kairan: (?:user [a-z-]+: )?the password on standard input is over 1024 bytes$/,
      ],
      [
        ["rename", ann.email],
        "",
        /^kairan: user rename: give --name, --family-kana or --given-kana; run 'kairan user rename --help' for its options$/,
      ],
      [["rename", ann.email, "--name", " "], "", /\(USER_NAME_REQUIRED\)$/],
    ];
    for (const [args, input, message] of cases) {
      const run = await kairan(args, input);
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr.split("\n")[0] ?? "", message, args.join(" "));
      assert.equal(run.stdout, "");
    }
    // Exactly at the limit: 1024 bytes are a password.
    const longest = await kairan(["set-password", ann.email, "--password-stdin"], "y".repeat(1024));
    assert.equal(longest.status, 0, longest.stderr);
    assert.equal((await signIn(ann.email, "y".repeat(1024))).answer.status, 303);
    assert.equal(
      (await signIn(ann.email, "new secret 漢字")).answer.status,
      200,
      "the refused inputs changed nothing before",
    );
  });
});
