// What the tests that start processes and servers of their own wait with: a free port to give
// one, and a poll for what it should come to say or do.
import net, { type AddressInfo } from "node:net";

/** A TCP port on loopback that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    }).on("error", reject);
  });
}

/** Polls `probe` until it gives a value; a generous bound, for hangs, not for the machine's speed. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, boundMs = 120_000): Promise<T> {
  const until = Date.now() + boundMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what}: not within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
