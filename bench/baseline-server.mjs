// The baseline: bare node:http answering one constant response (the bytes and headers of a real
// board page, fetched from Kairan first). Whatever Kairan does beyond this is our own cost.
// Usage: node bench/baseline-server.mjs BODY_FILE HEADERS_JSON_FILE; prints "listening on URL".
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const body = readFileSync(process.argv[2]);
const headers = { ...JSON.parse(readFileSync(process.argv[3], "utf8")), "content-length": String(body.length) };
const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
