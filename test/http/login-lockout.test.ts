// Sign-in throttling that a stranger cannot turn against an account's owner, over real loopback
// connections from different client addresses (Linux routes all of 127.0.0.0/8 to the server on
// 127.0.0.1): failures count per account and address, each address backs off and has a ceiling.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { issueTemporaryCredentials } from "../../src/services/oauth/oauth.js";
import { unlockUser } from "../../src/services/account/account-admin.js";
import { SIGNIN_COOKIE } from "../../src/web/session.js";
import { describeEachBackend } from "../support/backends.js";
import { PASSWORD, type TestConsumer, type TestUser } from "../support/factories.js";
import { formEncode, oauth1a } from "../support/oauth.js";
import { type Reply, sendFrom } from "../support/from-address.js";
import { type TestServer, startTestServer } from "../support/server.js";

const FORM = "application/x-www-form-urlencoded";

describeEachBackend("sign-in throttling per account and address (two loopback addresses)", (backend) => {
  let server: TestServer;
  let app: TestConsumer;
  let owner: TestUser;

  before(async () => {
    server = await startTestServer(backend, { limits: { loginLimitAccount: "3" } });
    app = await server.factories.app("Z", "Lockout client");
    owner = await server.factories.user({ email: "owner@example.com" });
  });
  after(() => server.close());

  /** The OAuth authorize page's form, approved with these credentials, from `address`. */
  async function authorize(address: string, email: string, password: string): Promise<Reply> {
    const registered = { id: app.id, name: "Lockout client", consumerKey: app.key, accessLevel: "Z" as const };
    const temporary = await issueTemporaryCredentials(server, { app: registered, callback: "oob" });
    const page = await sendFrom(
      `${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(temporary.token)}`,
      address,
    );
    const csrf = /name="csrf_token" value="([^"]*)"/.exec(page.text)?.[1] ?? "";
    const fields = { oauth_token: temporary.token, csrf_token: csrf, email, password, decision: "approve" };
    return sendFrom(`${server.url}/oauth/authorize`, address, {
      method: "POST",
      headers: { "content-type": FORM },
      body: formEncode(fields),
    });
  }

  /** The web interface's sign-in form, from `address`. */
  async function webSignIn(address: string, email: string, password: string): Promise<Reply> {
    const page = await sendFrom(`${server.url}/signin`, address);
    const cookies = [page.headers["set-cookie"] ?? []].flat().map((cookie) => cookie.split(";")[0] ?? "");
    assert.ok(
      cookies.some((cookie) => cookie.startsWith(`${SIGNIN_COOKIE}=`)),
      "the form's cookie",
    );
    const csrf = /name="_csrf" value="([^"]*)"/.exec(page.text)?.[1] ?? "";
    return sendFrom(`${server.url}/signin`, address, {
      method: "POST",
      headers: { "content-type": FORM, cookie: cookies.join("; ") },
      body: formEncode({ _csrf: csrf, email, password, next: "/" }),
    });
  }

  /** xAuth (a signed `POST /oauth/token`), from `address`. */
  async function xAuth(address: string, email: string, password: string): Promise<Reply> {
    const url = `${server.url}/oauth/token`;
    const form = { x_auth_mode: "client_auth", x_auth_username: email, x_auth_password: password };
    const client = oauth1a(app, server.clock);
    const authorization = client.toHeader(client.authorize({ url, method: "POST", data: form })).Authorization;
    return sendFrom(url, address, {
      method: "POST",
      headers: { "content-type": FORM, authorization },
      body: formEncode(form),
    });
  }

  /** Every password path from `address` with the owner's right password: 303, 303, 200 when let in. */
  async function everyPath(address: string): Promise<number[]> {
    return [
      (await authorize(address, owner.email, PASSWORD)).status,
      (await webSignIn(address, owner.email, PASSWORD)).status,
      (await xAuth(address, owner.email, PASSWORD)).status,
    ];
  }

  it("locks the stranger's address out of the account, never the owner signing in from another", async () => {
    const stranger = "127.0.0.2";
    const home = "127.0.0.1";
    assert.equal((await authorize(stranger, owner.email, "guess 1")).status, 200);
    assert.equal((await webSignIn(stranger, owner.email, "guess 2")).status, 200);
    assert.equal((await xAuth(stranger, owner.email, "guess 3")).status, 401);
    const refused = await authorize(stranger, owner.email, PASSWORD);
    assert.equal(refused.status, 429, "the 4th attempt from that address: refused, right password or not");
    assert.match(refused.text, /Too many failed sign-ins for this account from this address/);
    assert.ok(Number(refused.headers["retry-after"]) > 60);
    assert.deepEqual(await everyPath(stranger), [429, 429, 429]);
    for (let n = 0; n < 20; n++) await xAuth(stranger, owner.email, `guess ${n}`);

    assert.deepEqual(await everyPath(home), [303, 303, 200], "the owner, from another address, on every path");
    assert.deepEqual(
      await everyPath(stranger),
      [429, 429, 429],
      "the owner signing in elsewhere does not unlock that address",
    );
    const someoneElse = await server.factories.user({ email: "other@example.com" });
    assert.equal((await xAuth(stranger, someoneElse.email, PASSWORD)).status, 200, "other accounts from that address");

    // An operator unlocks the account (`kairan user unlock`), by its e-mail address.
    await unlockUser(server, owner.email);
    assert.equal((await xAuth(stranger, owner.email, PASSWORD)).status, 200);
  });

  it("backs an address off after 5 failures: waits that double up to a minute, only for that address", async () => {
    server.clock.advance(15 * 60 * 1000);
    const guesser = "127.0.0.3";
    let n = 0;
    const guess = () => xAuth(guesser, `nobody${n++}@example.com`, "guess");
    const refusedFor = async (seconds: number) => {
      const answer = await guess();
      assert.equal(answer.status, 429, answer.text);
      assert.equal(answer.headers["retry-after"], String(seconds));
      assert.match(answer.text, /Too many failed sign-ins from this address/);
    };
    for (let i = 0; i < 5; i++) assert.equal((await guess()).status, 401, `failure ${i + 1} is free`);
    await refusedFor(1);
    server.clock.advance(999);
    await refusedFor(1);
    assert.deepEqual(await everyPath("127.0.0.4"), [303, 303, 200], "another address meanwhile");
    server.clock.advance(1);
    assert.equal((await guess()).status, 401, "the wait is over (8 attempts counted, refused ones included)");
    await refusedFor(8);
    server.clock.advance(8000);
    assert.equal((await guess()).status, 401);
    await refusedFor(32);
    server.clock.advance(32_000);
    assert.equal((await guess()).status, 401);
    await refusedFor(60);
    server.clock.advance(60_000);
    assert.equal((await xAuth(guesser, owner.email, PASSWORD)).status, 200, "the right password after the wait");
  });
});
