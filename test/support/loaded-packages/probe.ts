// Run as its own process by test/http/lazy-libraries.test.ts, with register.mjs: `start` loads the
// command line (every command's module) and starts and stops a server as the tests do; `s3` loads
// the S3 blob store, a module that imports the AWS SDK, to show that the hook sees a package.
const what = process.argv[2];
if (what === "start") {
  await import("../../../src/cli/main.js");
  const { startTestServer } = await import("../server.js");
  const server = await startTestServer("sqlite");
  await server.close();
} else if (what === "s3") {
  await import("../../../src/blobs/s3.js");
} else {
  throw new Error(`probe: unknown "${what}"`);
}
