// Every page and form of the web interface, signed in with a valid form token, fed odd path
// segments, query values and form fields: the answer is a page (2xx), a redirect within the site,
// or an HTML refusal (4xx); never a server fault.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import fc from "fast-check";
import { registeredEndpoints } from "../../src/http-kit/route.js";
import { describeEachBackend } from "../support/backends.js";
import { shortOrLong } from "../support/long.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient } from "../support/web.js";

const RUNS = Number(process.env.KAIRAN_FUZZ_RUNS ?? shortOrLong(6, 300));
const SEED = Number(process.env.KAIRAN_FUZZ_SEED ?? 20260501);

/** Odd values people and scripts send: empty, huge, wrong shapes, control and non-ASCII characters. */
const oddValue = fc.oneof(
  fc.constantFrom(
    "",
    "0",
    "-1",
    "1:0",
    "1:1",
    "2:1",
    "1:999999999",
    "TRASH",
    "ATTACH",
    "UNCLASSIFIED",
    "true",
    "on",
    "%00",
    "\u0000",
    "あ",
    "😀",
    "../..",
    "//evil.example",
    "1e9",
    " 1 ",
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ minLength: 300, maxLength: 600 }),
);

describeEachBackend("web pages under odd input", (backend) => {
  let server: TestServer;
  let web: WebClient;
  let segments: string[];

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    const alice = await f.user({ name: "Alice" });
    const group = await f.group([alice]);
    const topic = await f.topic(group, alice, { allowEdit: true });
    await f.comment(topic, alice);
    const task = await f.task(group, alice);
    segments = [`1:${group.id}`, `1:${topic.id}`, `1:${task.id}`, "1", "1:1", "abc", "1:0", "%2F", "1:99999"];
    web = new WebClient(server.url);
    await web.signIn(alice.email);
    await web.get("/settings");
  });
  after(() => server.close());

  it(`answers every page and form with a page, a same-site redirect or an HTML refusal (${RUNS} runs each, seed ${SEED})`, async (t) => {
    const endpoints = registeredEndpoints(server.app).filter(
      (e) =>
        !e.url.startsWith("/api/") &&
        !e.url.startsWith("/oauth/") &&
        !e.url.startsWith("/m") &&
        !e.url.startsWith("/static/") &&
        // The calendar addresses answer calendar applications (test/http/ical.test.ts and the fuzzer).
        !e.url.startsWith("/ical/") &&
        // Incoming webhooks answer chat tools in JSON (test/hook and the endpoint fuzzer).
        !e.url.startsWith("/hooks/") &&
        // The WebSub hub answers subscribers with the API's error document (test/websub and the endpoint fuzzer).
        e.url !== "/websub" &&
        // The operations endpoints (/healthz, /readyz) answer machines in plain text.
        !e.public &&
        e.url !== "/signout",
    );
    assert.ok(endpoints.length >= 30, "the web's routes are in the route table");
    const csrf = web.csrf();
    for (const endpoint of endpoints) {
      for (const method of endpoint.methods) {
        await t.test(`${method} ${endpoint.url}`, async () => {
          const names = fc.constantFrom(
            "page",
            "cpage",
            "folder",
            "state",
            "from",
            "to",
            "status",
            "reply",
            "show",
            "group",
            "id",
            "id[]",
            "on",
            "title",
            "body",
            "text",
            "replyTo",
            "label",
            "app",
            "notify",
            "next",
            "back",
            "allowEdit",
            "inline",
            "version",
            "thumbnail",
            "assignee",
            "dueDate",
            "dueTime",
            "zone",
            "priority",
            "back",
            // The account page's forms.
            "name",
            "familyKana",
            "givenKana",
            "lang",
            "timeZone",
            "current",
            "password",
            "repeat",
            // The group and member forms.
            "summary",
            "email",
            "manager",
            "q",
            // The group's audit log's page.
            "before",
          );
          const input = fc.record({
            params: fc.array(fc.oneof(fc.constantFrom(...segments), oddValue), { minLength: 4, maxLength: 4 }),
            fields: fc.array(fc.tuple(names, oddValue), { maxLength: 6 }),
          });
          await fc.assert(
            fc.asyncProperty(input, async ({ params, fields }) => {
              let i = 0;
              const path = endpoint.url.replace(/:[a-z]+/g, () => encodeURIComponent(params[i++] ?? ""));
              const query = new URLSearchParams(fields).toString();
              const answer =
                method === "GET"
                  ? await web.get(`${path}?${query}`)
                  : await web.post(path, Object.fromEntries([...fields, ["_csrf", csrf]]));
              const said = `${method} ${path} ${query}: ${answer.status} ${answer.html.slice(0, 200)}`;
              assert.ok(answer.status < 500, said);
              // Addresses over 8 KB are refused before routing, by the server's own limit, for every client alike.
              if (answer.status === 414) return;
              if (answer.status >= 300 && answer.status < 400)
                assert.match(answer.location ?? "", /^\/(?![/\\])/, said);
              // Downloads (files, one's own data) answer bytes, and the mention suggestions and the
              // header's counts JSON for app.js; their refusals are pages.
              else if (
                answer.status >= 400 ||
                !(
                  path.startsWith("/download") ||
                  path.endsWith("/export") ||
                  endpoint.url === "/g/:group/mentions" ||
                  endpoint.url === "/unread"
                )
              ) {
                if (answer.status !== 204)
                  assert.match(answer.headers.get("content-type") ?? "", /^text\/html; charset=utf-8/, said);
              }
            }),
            { numRuns: RUNS, seed: SEED },
          );
        });
      }
    }
  });
});
