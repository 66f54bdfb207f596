import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { guardedRequest, isPrivateAddress } from "../../src/services/outbound/guarded-request.js";
import { type Receiver, startReceiver } from "./receiver.js";

describe("guarded outbound requests", () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());
  const post = (url: string, allowPrivate: boolean, timeoutMs = 2_000) =>
    guardedRequest({ url, method: "POST", headers: {}, body: "{}", timeoutMs, excerptChars: 10, allowPrivate });

  it("knows the private ranges", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:127.0.0.1",
      "not an address",
    ])
      assert.equal(isPrivateAddress(address), true, address);
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "172.32.0.1"])
      assert.equal(isPrivateAddress(address), false, address);
  });

  it("refuses literal private addresses and names resolving to them, at connect time", async () => {
    const before = receiver.received.length;
    for (const url of [
      `http://127.0.0.1:${receiver.port}/`,
      `http://localhost:${receiver.port}/`,
      `http://[::1]:${receiver.port}/`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/",
    ])
      await assert.rejects(post(url, false), /private address/, url);
    assert.equal(receiver.received.length, before, "nothing reached the receiver");
  });

  it("reaches them when the operator allows private addresses, and never follows a redirect", async () => {
    receiver.answer([302]);
    const before = receiver.received.length;
    const answer = await post(`http://localhost:${receiver.port}/`, true);
    assert.equal(answer.status, 302);
    assert.equal(receiver.received.length, before + 1);
    receiver.answer([500]);
    const failed = await post(`http://127.0.0.1:${receiver.port}/`, true);
    assert.equal(failed.status, 500);
    assert.equal(failed.excerpt, "failure 50", "10 characters");
  });

  it("gives up when the answer takes too long, and refuses other schemes", async () => {
    const { createServer } = await import("node:http");
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    await assert.rejects(post(`http://127.0.0.1:${port}/`, true, 200), /no answer within 200 ms/);
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
    await assert.rejects(post("file:///etc/passwd", true), /not requested/);
  });
});
