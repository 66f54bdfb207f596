// HTTP spoken byte by byte over a TCP socket: for limits that fetch cannot reach (header sizes,
// slow or stalled clients, uploads cut off half-way) and for reading what the server does to the
// connection (Connection: close, closing it).
import { connect, type Socket } from "node:net";
import { parseXml, type XmlElement } from "../../src/atom/parse.js";

/** A response read off a raw socket. */
export interface RawAnswer {
  readonly status: number;
  /** Lower-cased names. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
  readonly xml: XmlElement;
}

/** An open connection: write requests (or parts of them), read the first response. */
export interface RawConnection {
  readonly socket: Socket;
  write(data: string | Buffer): void;
  /** The first complete response; rejects when the connection closes without one. */
  readonly response: Promise<RawAnswer>;
  /** Resolves when the server (or we) closed the connection. */
  readonly closed: Promise<void>;
}

/** Opens a TCP connection to the server at `baseUrl` and starts reading its first response. */
export async function openRaw(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let received = Buffer.alloc(0);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  // Resets after the server answered early (an upload refused mid-body) are expected.
  socket.on("error", () => undefined);
  const response = new Promise<RawAnswer>((resolve, reject) => {
    const tryParse = () => {
      const answer = parseResponse(received);
      if (answer) resolve(answer);
      return answer !== undefined;
    };
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      tryParse();
    });
    socket.once("close", () => {
      if (!tryParse())
        reject(
          new Error(
            `the connection closed without a complete response (got ${JSON.stringify(received.toString("latin1").slice(0, 200))})`,
          ),
        );
    });
  });
  response.catch(() => undefined);
  return { socket, write: (data) => void socket.write(data), response, closed };
}

/** Sends one whole request and returns the response, closing the connection afterwards. */
export async function rawRequest(
  baseUrl: string,
  request: string | Buffer,
): Promise<RawAnswer & { closedByServer: Promise<void> }> {
  const connection = await openRaw(baseUrl);
  connection.write(request);
  const answer = await connection.response;
  return { ...answer, closedByServer: connection.closed };
}

function parseResponse(bytes: Buffer): RawAnswer | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const [statusLine = "", ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const length = Number(headers.get("content-length") ?? NaN);
  // Our answers always carry a length; without one, the body is complete when the connection closes.
  if (Number.isFinite(length) && bytes.length < end + 4 + length) return undefined;
  const body = bytes.subarray(end + 4, Number.isFinite(length) ? end + 4 + length : bytes.length).toString("utf8");
  let parsed: XmlElement | undefined;
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body,
    get xml() {
      parsed ??= parseXml(body);
      return parsed;
    },
  };
}
