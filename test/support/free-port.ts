import { createServer } from "node:net";

/** A port free on 127.0.0.1 now, for a server that must know its port before it starts (its public URL names it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}
