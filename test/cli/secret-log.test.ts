// Secrets never reach the logs: a real server process, its whole output captured at the most
// verbose level, goes through every way of signing in (three-legged OAuth with a callback and out
// of band, legacy signing, xAuth, Bearer with a personal and a seeded token, OAuth signed in the
// query string and in a form body, the web's password sign-in, an invitation link, a calendar
// address, a password reset, an address change, an invitation's sign-in); then not one of the secrets used appears in what it wrote. On SQLite, and on PostgreSQL
// when KAIRAN_TEST_DATABASE_URL is set. Runs the built server: `npm run build` first.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { SESSION_COOKIE } from "../../src/web/session.js";
import { TEST_DATABASE_URL, type TestSchema, createTestSchema, describeEachBackend } from "../support/backends.js";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { runKairanHere } from "../support/cli-in-process.js";
import { TestClock } from "../support/clock.js";
import { request } from "../support/http.js";
import { type KeyPair, formEncode, oauth1a, oauthParams } from "../support/oauth.js";
import { approve, initiate, issuedPair, signedGet, signedPost, threeLegged, xAuth } from "../support/oauth-dance.js";
import { WebClient } from "../support/web.js";
import { linkPath, openOutbox } from "../support/account-mail.js";

const PASSWORD = "alice-log-password-7f3a";
const Z_APP = { key: "log-z-key", secret: "log-z-consumer-secret-91c2" };
const LEGACY_APP = { key: "log-legacy-key", secret: "log-legacy-consumer-secret-5d7e" };
const SEEDED = { key: "log-seeded-token-4b8e", secret: "log-seeded-token-secret-0c1d" };

describeEachBackend("secrets never reach the server's log", (backend) => {
  let dataDir: string;
  let schema: TestSchema | undefined;
  let server: ServerProcess;
  let personal: KeyPair;
  /** Every secret the flows used; none may appear in the log. */
  const secrets = new Set<string>([PASSWORD, Z_APP.secret, LEGACY_APP.secret, SEEDED.key, SEEDED.secret]);
  const keep = (...values: (string | undefined)[]) => values.forEach((value) => value && secrets.add(value));
  const clock = new TestClock(Date.now());

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "kairan-secret-log-"));
    const seedFile = join(dataDir, "seed.json");
    const alice = { ref: "alice", name: "Alice", email: "alice@log.example", password: PASSWORD };
    const apps = [{ ref: "z", name: "Z", consumerKey: Z_APP.key, consumerSecret: Z_APP.secret, accessLevel: "Z" }];
    const tokens = [{ user: "alice", app: "z", token: SEEDED.key, secret: SEEDED.secret }];
    const groups = [{ ref: "g", name: "Logged", members: [{ user: "alice", manager: true }] }];
    writeFileSync(seedFile, JSON.stringify({ users: [alice], apps, tokens, groups }));
    schema = backend === "postgres" ? await createTestSchema() : undefined;
    const data = ["--data", dataDir, ...(schema ? ["--database", operatorUrl(schema.name)] : [])];
    assert.equal((await runKairanHere(["seed", seedFile, ...data])).status, 0);
    const legacy = ["--name", "Catalyst", "--level", "write", "--key", LEGACY_APP.key, "--secret", LEGACY_APP.secret];
    assert.equal((await runKairanHere(["app", "add", ...legacy, "--legacy-signing", ...data])).status, 0);
    const issued = await runKairanHere(["token", "add", "--user", alice.email, "--app", Z_APP.key, ...data]);
    personal = {
      key: /token: +(\S+)/.exec(issued.stdout)?.[1] ?? "",
      secret: /token secret: +(\S+)/.exec(issued.stdout)?.[1] ?? "",
    };
    keep(personal.key, personal.secret);
    // The server is a process: its whole output is what is searched. The commands before it run here.
    const flags = ["--port", "0", ...data, "--no-demo", "--allow-signup", "--log-level", "trace"];
    server = await startServerProcess(flags);
  });
  after(async () => {
    await server?.stop();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const person = { email: "alice@log.example", password: PASSWORD };
  const board = () => `${server.url}/api/board/V2?group=1:1`;

  it("three-legged OAuth with a callback and out of band, and legacy signing", async () => {
    const viaCallback = await threeLegged(server.url, clock, Z_APP, person, "https://client.example/cb?session=c1");
    keep(viaCallback.key, viaCallback.secret);
    const oob = await initiate(server.url, clock, Z_APP, "oob");
    const verifier = await approve(server.url, oob, person.email, person.password);
    keep(oob.key, oob.secret, verifier);
    const token = issuedPair(
      await signedPost(`${server.url}/oauth/token`, clock, Z_APP, oob, { oauth_verifier: verifier }),
    );
    keep(token.key, token.secret);
    assert.equal((await signedGet(board(), clock, Z_APP, token)).status, 200);

    const temporary = await initiate(server.url, clock, LEGACY_APP, "https://client.example/catalyst");
    const legacyVerifier = await approve(server.url, temporary, person.email, person.password);
    keep(temporary.key, temporary.secret, legacyVerifier);
    // Signed as Catalyst::Authentication::Credential::OAuth 0.04 does: an empty token secret, all in the query.
    const url = `${server.url}/oauth/token`;
    const signed = inQuery(
      url,
      "GET",
      LEGACY_APP,
      { key: temporary.key, secret: "" },
      { oauth_verifier: legacyVerifier },
    );
    const legacyToken = issuedPair(await request(signed));
    keep(legacyToken.key, legacyToken.secret);
  });

  it("xAuth in a header, in the query string and in a form body", async () => {
    keep(...Object.values(await xAuth(server.url, clock, Z_APP, person)));
    const url = `${server.url}/oauth/token`;
    const fields = { x_auth_mode: "client_auth", x_auth_username: person.email, x_auth_password: PASSWORD };
    keep(
      ...Object.values(issuedPair(await request(inQuery(url, "POST", Z_APP, undefined, fields), { method: "POST" }))),
    );
    const client = oauth1a(Z_APP, clock);
    const oauth = oauthParams(client.authorize({ url, method: "POST", data: { ...fields } }));
    keep(oauth.oauth_signature);
    const body = formEncode({ ...fields, ...oauth });
    const answer = await request(url, { body, contentType: "application/x-www-form-urlencoded" });
    keep(...Object.values(issuedPair(answer)));
  });

  it("OAuth signed in the query string, Bearer with a personal and a seeded token", async () => {
    assert.equal((await request(inQuery(board(), "GET", Z_APP, personal))).status, 200);
    assert.equal((await request(board(), { token: personal.key })).status, 200);
    assert.equal((await request(board(), { token: SEEDED.key })).status, 200);
    assert.equal((await signedGet(board(), clock, Z_APP, SEEDED)).status, 200);
  });

  it("the web: password sign-in, a calendar address, an invitation link", async () => {
    const web = new WebClient(server.url);
    await web.signIn(person.email, PASSWORD);
    keep(web.cookie(SESSION_COOKIE), web.csrf());
    await web.get("/settings");
    const created = await web.post("/settings/calendar");
    const address = /id="calendar-mine"[^>]*>([^<]+)</.exec(created.html)?.[1] ?? "";
    const calendarSecret = /\/ical\/([^/]+)\//.exec(address)?.[1];
    assert.ok(calendarSecret, created.html.slice(0, 300));
    keep(calendarSecret);
    assert.equal((await request(address)).status, 200);

    await web.get("/g/1:1/members");
    const invited = await web.post("/g/1:1/members/invite", { email: "newbie@log.example" });
    const link = /id="invitation-link">([^<]+)</.exec(invited.html)?.[1]?.replace(server.url, "") ?? "";
    keep(/\/join\/[^/]+\/([^/?]+)/.exec(link)?.[1]);
    const newbie = new WebClient(server.url);
    assert.equal((await newbie.get(link)).status, 200);
    const joined = await newbie.post(link, { name: "Newbie", password: "newbie-log-password-2e9b" });
    assert.equal(joined.status, 303, joined.html.slice(0, 300));
    keep("newbie-log-password-2e9b", newbie.cookie(SESSION_COOKIE));
    assert.equal((await newbie.get("/g/1:1/board")).status, 200);
  });

  it("the account links: a password reset, an address change, an invitation's sign-in and its next", async () => {
    const outbox = openOutbox({
      storeConfig: schema
        ? { kind: "postgres", url: operatorUrl(schema.name) }
        : { kind: "sqlite", file: join(dataDir, "kairan.sqlite") },
    });
    try {
      const linkTo = async (address: string, kind: string) => {
        const path = linkPath((await outbox.to(address, kind)).at(-1)?.text_body ?? "", server.url);
        keep(path.split("/").at(-1));
        return path;
      };
      const web = new WebClient(server.url);
      await web.get("/password/forgot");
      assert.equal((await web.post("/password/forgot", { email: person.email })).status, 200);
      const reset = await linkTo(person.email, "password-reset");
      assert.equal((await web.get(reset)).status, 200);
      const fresh = "alice-reset-log-password-3c4d";
      keep(fresh);
      assert.equal((await web.post(reset, { password: fresh, repeat: fresh })).status, 303);
      keep(web.cookie(SESSION_COOKIE));
      await web.get("/account");
      keep(web.csrf());
      assert.equal((await web.post("/account/email", { email: "alice.new@log.example", current: fresh })).status, 303);
      const confirm = await linkTo("alice.new@log.example", "address-confirm");
      const visitor = new WebClient(server.url);
      assert.equal((await visitor.get(confirm)).status, 200);
      assert.equal((await visitor.post(confirm)).status, 303);
      // An invitation to an address with an account: its page sends to sign-in with the link in `next`.
      await web.post("/groups/new", { name: "Second", summary: "" });
      await web.get("/g/1:2/members");
      await web.post("/g/1:2/members/invite", { email: "newbie@log.example" });
      const join = await linkTo("newbie@log.example", "invitation");
      const page = await visitor.get(join);
      const signin = /href="([^"]*\/signin\?next=[^"]*)"/.exec(page.html)?.[1]?.replace(/&amp;/g, "&") ?? "";
      assert.match(signin, /next=%2Fjoin%2F/);
      assert.equal((await visitor.get(signin)).status, 200);
    } finally {
      await outbox.close();
    }
  });

  it("the whole log holds none of them", async () => {
    await server.stop();
    const log = `${server.stdout()}\n${server.stderr()}`;
    const found = [...secrets].filter((secret) => secret.length >= 6 && variants(secret).some((v) => log.includes(v)));
    assert.deepEqual(found, [], `${secrets.size} secrets looked for`);
    assert.match(log, /"url":"\/oauth\/token\?[^"]*oauth_signature=\[secret\]/, "the requests are logged");
    assert.match(log, /"url":"\/join\/[^"]*\/\[secret\]"/);
    assert.match(log, /"url":"\/password\/reset\/\[secret\]"/);
    assert.match(log, /"url":"\/account\/email\/confirm\/\[secret\]"/);
    assert.match(log, /"url":"\/signin\?next=%2Fjoin%2F1%3A\d+%2F%5Bsecret%5D"/);
    assert.match(log, /legacy signing accepted/);
    assert.ok(secrets.size >= 30, `every flow contributed its secrets (${secrets.size})`);
  });

  /** `url` with every OAuth parameter in its query string; the signature is kept as a secret. */
  function inQuery(url: string, method: string, consumer: KeyPair, token?: KeyPair, data: Record<string, string> = {}) {
    const client = oauth1a(consumer, clock);
    const oauth = oauthParams(client.authorize({ url, method, data: { ...data } }, token));
    keep(oauth.oauth_signature);
    return `${url}${url.includes("?") ? "&" : "?"}${formEncode({ ...data, ...oauth })}`;
  }
});

/** The schema named the operator's way, `?search_path=NAME`. */
function operatorUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL ?? "");
  url.searchParams.set("search_path", name);
  return url.toString();
}

/** A secret as it could be written: raw, percent-encoded, form-encoded. */
function variants(secret: string): string[] {
  return [...new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)])];
}
