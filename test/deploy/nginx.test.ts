// deploy/nginx/kairan.conf run by Debian's nginx, started by this test on free ports with its own
// prefix, a self-signed certificate made here by openssl, and Kairan behind it with
// --public-url https://127.0.0.1:PORT --trust-proxy 127.0.0.1: a page and a sign-in over https, an
// OAuth 1.0a call whose base string is the public https URL, a live event through the proxy as it
// happens, the client's address as nginx saw it (never one the client wrote), and the body size
// limit at its boundary. Never the system's nginx service: this nginx is a child of the test.
// Without nginx the suite fails, saying so (.ci/run installs it).
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { type IncomingHttpHeaders, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { loadConfig } from "../../src/config/config.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import { eventually } from "../support/eventually.js";
import { freePort } from "../support/free-port.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS } from "../support/http.js";
import { type KeyPair, oauth1a } from "../support/oauth.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { type SseClient, openSse } from "../support/sse.js";
import { tempDirs } from "../support/temp-dirs.js";

const CONF = readFileSync(join(import.meta.dirname, "../../deploy/nginx/kairan.conf"), "utf8");
const scratch = tempDirs("kairan-nginx-");
/** Debian's nginx, in /usr/sbin (which an ordinary user's PATH may not have); else the one on PATH. */
const NGINX = existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";

/** Why nginx cannot run here, or undefined when it can. */
function nginxMissing(): string | undefined {
  const probe = spawnSync(NGINX, ["-v"], { encoding: "utf8" });
  return probe.error ? "nginx is not installed: apt-get install -y nginx (.ci/run installs it)" : undefined;
}

/** `text` with `from` replaced by `to`, which must occur exactly `times` times: the test runs the file as shipped. */
function replaceExactly(text: string, from: string, to: string, times = 1): string {
  const found = text.split(from).length - 1;
  assert.equal(found, times, `deploy/nginx/kairan.conf has "${from}" ${times} time(s) (found ${found})`);
  return text.split(from).join(to);
}

/** The shipped site file with this test's ports and certificate, and nothing else changed. */
function siteForTest(dir: string, ports: { https: number; http: number; kairan: number }): string {
  let site = replaceExactly(CONF, "server 127.0.0.1:8080;", `server 127.0.0.1:${ports.kairan};`);
  site = replaceExactly(site, "listen 443 ssl http2;", `listen 127.0.0.1:${ports.https} ssl http2;`);
  site = replaceExactly(site, "listen 80;", `listen 127.0.0.1:${ports.http};`);
  // Only the IPv4 loopback here: the machine may have no IPv6.
  site = replaceExactly(site, "listen [::]:443 ssl http2;", "");
  site = replaceExactly(site, "listen [::]:80;", "");
  site = replaceExactly(site, "/etc/letsencrypt/live/kairan.example.com/fullchain.pem", join(dir, "cert.pem"));
  return replaceExactly(site, "/etc/letsencrypt/live/kairan.example.com/privkey.pem", join(dir, "key.pem"));
}

/** nginx's main file, as Debian's /etc/nginx/nginx.conf would include the site, but every path in `dir`. */
function mainConfig(dir: string): string {
  // Run as root (CI), workers would drop to "nobody", who cannot write into this test's directory.
  const user = process.getuid?.() === 0 ? "user root;" : "";
  return `${user}
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 128; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/kairan.conf;
}
`;
}

/** An answer over HTTP(S), read whole. */
interface TlsAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

describeEachBackend("deploy/nginx/kairan.conf with Debian's nginx in front of Kairan", (backend) => {
  let dir: string;
  let cert: string;
  let ports: { https: number; http: number; kairan: number };
  let publicUrl: string;
  let server: TestServer;
  let nginx: ChildProcess | undefined;
  let alice: TestUser;
  let bob: TestUser;
  let groupId: number;
  const streams: SseClient[] = [];

  /** A request over https to nginx (or plain http to `base`), from `localAddress` (another loopback address is another client). */
  const send = (
    url: string,
    options: {
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      localAddress?: string;
    } = {},
  ): Promise<TlsAnswer> =>
    new Promise((resolve, reject) => {
      const call = url.startsWith("https:") ? httpsRequest : httpRequest;
      const outgoing = call(
        url,
        {
          method: options.method ?? "GET",
          headers: options.headers ?? {},
          ca: cert,
          localAddress: options.localAddress,
          agent: false,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () =>
            resolve({
              status: answer.statusCode ?? 0,
              headers: answer.headers,
              text: Buffer.concat(chunks).toString(),
            }),
          );
        },
      );
      outgoing.on("error", reject);
      outgoing.end(options.body);
    });

  /** An Atom insert of a topic in the group, signed with OAuth 1.0a for `signedUrl`, sent to the public URL. */
  const createTopic = (title: string, signedUrl = `${publicUrl}/api/board/V2`) => {
    const client = oauth1a(alice.consumer, server.clock);
    const token: KeyPair = { key: alice.token, secret: alice.tokenSecret };
    const authorization = client.toHeader(client.authorize({ url: signedUrl, method: "POST" }, token)).Authorization;
    return send(`${publicUrl}/api/board/V2`, {
      method: "POST",
      headers: { authorization, "content-type": "application/atom+xml" },
      body: `<feed ${CLIENT_NS}><cbl:operation type="insert"/><entry><cbl:group id="1:${groupId}"/><title>${title}</title></entry></feed>`,
    });
  };

  /** Where the client at `localAddress` stands in its address's rate limit: the requests it has left. */
  const left = async (base: string, localAddress: string, forwardedFor?: string) => {
    const headers: Record<string, string> = forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor };
    const answer = await send(`${base}/api/group/V2`, { headers, localAddress });
    const remaining = /"address";r=(\d+)/.exec(String(answer.headers.ratelimit))?.[1];
    assert.ok(remaining !== undefined, `a RateLimit header: ${JSON.stringify(answer.headers)}`);
    return Number(remaining);
  };

  before(async () => {
    const missing = nginxMissing();
    assert.ok(missing === undefined, missing);
    dir = scratch();
    const openssl = spawnSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
        ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
        ...["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
      ],
      { encoding: "utf8" },
    );
    assert.equal(openssl.status, 0, `openssl: ${openssl.error?.message ?? openssl.stderr}`);
    cert = readFileSync(join(dir, "cert.pem"), "utf8");
    const https = await freePort();
    publicUrl = `https://127.0.0.1:${https}`;
    // Request rate limits on: their per-address counters show which address Kairan believed.
    server = await startTestServer(backend, {
      publicUrl,
      limits: { noRateLimit: false, trustProxy: "127.0.0.1" },
    });
    ports = { https, http: await freePort(), kairan: Number(new URL(server.url).port) };
    writeFileSync(join(dir, "kairan.conf"), siteForTest(dir, ports));
    writeFileSync(join(dir, "nginx.conf"), mainConfig(dir));
    const conf = ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")];
    const check = spawnSync(NGINX, ["-t", ...conf], { encoding: "utf8" });
    assert.equal(check.status, 0, `nginx -t:\n${check.stderr}`);
    nginx = spawn(NGINX, conf, { stdio: "ignore" });
    const answers = async () => (await send(`${publicUrl}/healthz`).catch(() => undefined))?.status === 200;
    await eventually(answers, `nginx answering on ${publicUrl}; its log: ${join(dir, "error.log")}`);

    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    groupId = (await server.factories.group([alice, bob], { name: "Team" })).id;
  });

  after(async () => {
    for (const stream of streams) stream.close();
    if (nginx?.exitCode === null) {
      const exited = new Promise((resolve) => nginx?.once("exit", resolve));
      nginx.kill("SIGQUIT");
      await exited;
    }
    await server?.close();
  });

  it("serves the sign-in page over https, signs in with a Secure cookie, and redirects plain http to https", async () => {
    const page = await send(`${publicUrl}/signin`);
    assert.equal(page.status, 200, page.text);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    const csrf = /name="_csrf" value="([^"]*)"/.exec(page.text)?.[1];
    assert.ok(csrf, "the sign-in form carries its token");
    const cookies = (answer: TlsAnswer) => (answer.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]);
    const signIn = await send(`${publicUrl}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies(page).join("; ") },
      body: new URLSearchParams({ _csrf: csrf, email: alice.email, password: "password" }).toString(),
    });
    assert.equal(signIn.status, 303, signIn.text);
    // The cookies it sets (not the one it clears) are Secure: the public URL is https.
    const set = (signIn.headers["set-cookie"] ?? []).filter((line) => /^kairan_(session|device)=[^;]/.test(line));
    assert.equal(set.length, 2, `session and device cookies: ${String(signIn.headers["set-cookie"])}`);
    for (const line of set) assert.match(line, /;\s*Secure/, line);
    const home = await send(`${publicUrl}/`, {
      headers: { cookie: [...cookies(page), ...cookies(signIn)].join("; ") },
    });
    assert.equal(home.status, 200);
    assert.match(home.text, /Team/);
    assert.equal(home.headers["strict-transport-security"], "max-age=31536000");

    const plain = await send(`http://127.0.0.1:${ports.http}/signin?next=%2F`);
    assert.equal(plain.status, 301);
    assert.equal(plain.headers.location, "https://127.0.0.1/signin?next=%2F");
  });

  it("verifies an OAuth 1.0a call against the public https URL, not the address nginx forwards to", async () => {
    const created = await createTopic("Over TLS");
    assert.equal(created.status, 200, created.text);
    assert.match(created.text, /<title>Over TLS<\/title>/);
    const signedForInside = await createTopic("Signed for the inside", `${server.url}/api/board/V2`);
    assert.equal(signedForInside.status, 401, signedForInside.text);
    assert.match(signedForInside.text, /oauth_problem=signature_invalid/);
  });

  it("passes a live event through as it happens (the stream is not buffered)", async () => {
    const live = await openSse(`${publicUrl}/api/stream/V2`, { authorization: `Bearer ${bob.token}` }, { ca: cert });
    streams.push(live);
    assert.equal(live.status, 200);
    assert.match(String(live.headers["content-type"]), /^text\/event-stream/);
    assert.equal(live.headers["content-length"], undefined);
    const created = await createTopic("Live through nginx");
    assert.equal(created.status, 200, created.text);
    // Buffered, the event would wait for the proxy's buffer to fill or the stream to end (hours).
    const [event] = await live.waitFor((sent) => sent.data.includes("Live through nginx"), 1, 5000);
    assert.equal(event?.event, "notification");
  });

  it("counts each client by the address nginx saw, whatever X-Forwarded-For the client sends", async () => {
    // 127.0.0.2 and 127.0.0.3 are two clients of nginx (the loopback answers every 127.x address).
    const first = await left(publicUrl, "127.0.0.2", "203.0.113.1");
    assert.equal(
      await left(publicUrl, "127.0.0.2", "203.0.113.2"),
      first - 1,
      "a forged address counts as the client's own",
    );
    assert.equal(await left(publicUrl, "127.0.0.2"), first - 2);
    assert.equal(
      await left(publicUrl, "127.0.0.3", "127.0.0.2"),
      first,
      "another client: its own counter, not nginx's",
    );
  });

  it("ignores X-Forwarded-For from an address that is not --trust-proxy", async () => {
    // Straight to Kairan from 127.0.0.4, which is no trusted proxy.
    const first = await left(server.url, "127.0.0.4", "203.0.113.9");
    assert.equal(await left(server.url, "127.0.0.4", "203.0.113.10"), first - 1);
    assert.equal(await left(server.url, "127.0.0.5", "127.0.0.4"), first, "127.0.0.5 is not taken for 127.0.0.4");
  });

  it("closes idle connections to Kairan before Kairan does", () => {
    const nginxSeconds = /upstream kairan \{[^}]*keepalive_timeout (\d+)s;/.exec(CONF)?.[1];
    assert.ok(nginxSeconds !== undefined, "the upstream sets keepalive_timeout in seconds");
    const kairanMs = loadConfig({}, {}).limits.timeouts.keepAliveMs;
    assert.ok(Number(nginxSeconds) * 1000 < kairanMs, `${nginxSeconds} s is less than Kairan's ${kairanMs / 1000} s`);
  });

  it("lets through bodies up to client_max_body_size, above Kairan's largest request, and refuses one byte more", async () => {
    const limit = /client_max_body_size (\d+)m;/.exec(CONF)?.[1];
    assert.ok(limit !== undefined, "client_max_body_size is given in megabytes");
    const bytes = Number(limit) * 1024 * 1024;
    assert.ok(bytes >= LIMITS.multipartMaxBytes + LIMITS.multipartEnvelopeBytes, "a comment with 50 MB of files fits");
    const upload = (body: Buffer | string, length: number) =>
      send(`${publicUrl}/api/comment/V2`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${alice.token}`,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(length),
        },
        body,
      });
    // One byte more: nginx refuses on the declared length, before any of the body is sent.
    const refused = await upload("", bytes + 1);
    assert.equal(refused.status, 413);
    assert.match(refused.text, /nginx/);
    // At the limit: nginx passes it on, and Kairan answers with its own refusal (more than 50 MB of files).
    const passed = await upload(Buffer.alloc(bytes, "a"), bytes);
    assert.equal(passed.status, 413);
    assert.match(passed.text, /<error code="REQUEST_TOO_LARGE">/);
  });
});
