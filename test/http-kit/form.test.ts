import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import Fastify, { type FastifyInstance } from "fastify";
import { formFields, mediaType, sameToken } from "../../src/http-kit/form.js";

describe("form reading", () => {
  let app: FastifyInstance;
  let url: string;

  before(async () => {
    // Bodies arrive as raw strings, as the server reads them (app.ts).
    app = Fastify();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
    app.post("/echo", async (request) => ({ type: mediaType(request), fields: [...formFields(request)] }));
    await app.listen({ port: 0, host: "127.0.0.1" });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/echo`;
  });
  after(() => app.close());

  const post = async (contentType: string | undefined, body: string) => {
    const answer = await fetch(url, {
      method: "POST",
      body,
      headers: contentType ? { "content-type": contentType } : {},
    });
    return (await answer.json()) as { type: string; fields: [string, string][] };
  };

  it("reads urlencoded fields whatever the type's case and parameters", async () => {
    assert.deepEqual(await post("Application/X-WWW-Form-URLEncoded; charset=UTF-8", "a=1&b=x+y&a=%E6%97%A5"), {
      type: "application/x-www-form-urlencoded",
      fields: [
        ["a", "1"],
        ["b", "x y"],
        ["a", "日"],
      ],
    });
  });

  it("reads no fields from any other body", async () => {
    assert.deepEqual(await post("text/plain", "a=1"), { type: "text/plain", fields: [] });
    assert.deepEqual(await post("multipart/form-data; boundary=x", "a=1"), { type: "multipart/form-data", fields: [] });
  });

  it("compares form tokens: equal only when every character is", () => {
    const token = "q7xK2mZ0-_abcdefghijklmnopqrstuvwxyz01234";
    assert.equal(sameToken(token, token), true);
    assert.equal(sameToken(`${token.slice(0, -1)}5`, token), false, "the last character differs");
    assert.equal(sameToken(token.slice(0, -1), token), false, "a prefix");
    assert.equal(sameToken(`${token}x`, token), false, "longer");
    assert.equal(sameToken("", token), false);
    assert.equal(sameToken("é", "e\u0301"), false, "no normalisation");
    assert.equal(sameToken("日本", "日本"), true);
  });
});
