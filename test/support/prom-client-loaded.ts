// Run as its own process by test/http/metrics.test.ts: boots a server with metrics off (the
// default) and prints whether the Prometheus client was loaded, which only a fresh process can tell.
import { createRequire } from "node:module";
import { startTestServer } from "./server.js";

const server = await startTestServer("sqlite");
const loaded = Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes("/prom-client/"));
await server.close();
console.log(JSON.stringify({ loaded }));
