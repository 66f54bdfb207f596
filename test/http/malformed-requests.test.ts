// Requests refused before any route runs (found by test/fuzz: fastify answered them in JSON).
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, it } from "node:test";
import { parseXml } from "../../src/atom/parse.js";
import { request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

/** Writes raw bytes on a fresh connection and reads everything until the server closes it. */
function rawExchange(url: string, bytes: Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
  });
}

/** Status line, Content-Type and the `<error>` code of a raw HTTP answer. */
function readRaw(answer: string): { status: number; type: string; code: string | undefined } {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const type = /^content-type: (.*)$/im.exec(head)?.[1] ?? "";
  return { status, type, code: parseXml(body).attributes.get("code") };
}

describeEachBackend("requests refused before routing", (backend) => {
  let server: TestServer;
  before(async () => (server = await startTestServer(backend)));
  after(() => server.close());

  const cases: ReadonlyArray<readonly [string, Buffer]> = [
    [
      "a raw non-ASCII byte in the request line",
      Buffer.concat([
        Buffer.from("GET /api/group/V2?a="),
        Buffer.from([0xc5]),
        Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n"),
      ]),
    ],
    [
      "a body sent after a GET without framing (garbage as the next request)",
      Buffer.from("GET /api/group/V2 HTTP/1.1\r\nHost: x\r\n\r\n<feed/>\r\n\r\n"),
    ],
    ["a request line that is not HTTP", Buffer.from("HELLO\r\n\r\n")],
    ["a header without a colon", Buffer.from("GET /api/group/V2 HTTP/1.1\r\nHost x\r\n\r\n")],
  ];
  for (const [name, bytes] of cases) {
    it(`answers ${name} with a 400 <error> document`, async () => {
      const answers = (await rawExchange(server.url, bytes)).split(/(?=HTTP\/1\.1 )/);
      // The garbage may follow a request that was fine: the last answer is the refusal.
      const last = readRaw(answers.at(-1) ?? "");
      assert.equal(last.status, 400, answers.join("\n"));
      assert.equal(last.type, "application/xml; charset=utf-8");
      assert.equal(last.code, "MALFORMED_REQUEST");
    });
  }

  it("answers a path with broken percent-encoding with a 400 INVALID_URL <error> document", async () => {
    for (const path of ["/api/board/V2%", "/api/board/V2%zz", "/oauth/token%FF"]) {
      const answer = await rawExchange(
        server.url,
        Buffer.from(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      );
      assert.deepEqual(
        readRaw(answer),
        { status: 400, type: "application/xml; charset=utf-8", code: "INVALID_URL" },
        answer,
      );
    }
    // Still the server it was: the next request is answered as usual.
    assert.equal((await request(`${server.url}/api/group/V2`)).status, 401);
  });
});
