// What a CSV export holds in memory: ROWS tenants (default 100,000, made by one set-based
// insert) exported through the real server by `?format=csv`, read by a client that keeps
// nothing, while the process's memory is sampled every 50 ms. Prints the figures; asserts
// nothing (a figure, not a test). The server runs in this process, on the embedded database
// or on DATABASE_URL (whose schema it wipes: give it a database of its own).
//   node_modules/.bin/tsx --expose-gc bench/csv-memory.ts [ROWS ...]
import { startTestServer, stopTestServer } from "../test/support/server.js";

const MB = 1024 * 1024;
const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;

async function exportOnce(rows: number, inserted: number): Promise<number> {
  const { db, url, token } = await startTestServer();
  if (rows > inserted) {
    await db.raw(
      `INSERT INTO tenancy_tenant (name, slug, description) SELECT 'bench-' || n, 'bench-' || n, 'bench' FROM generate_series(?::int, ?::int) n`,
      [inserted + 1, rows],
    );
  }
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  const peak = { rss: base.rss, heapUsed: base.heapUsed, external: base.external };
  const sample = setInterval(() => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    peak.external = Math.max(peak.external, now.external);
  }, 50);
  const started = Date.now();
  const res = await fetch(`${url}/api/tenancy/tenants/?q=bench-&format=csv`, { headers: { Authorization: `Token ${token}` } });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  clearInterval(sample);
  console.log(`${rows} rows (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}): status ${res.status}, ${lines - 1} lines, ${mb(bytes)} in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
    `heap used ${mb(base.heapUsed)} -> peak ${mb(peak.heapUsed)} (+${mb(peak.heapUsed - base.heapUsed)}), ` +
    `rss ${mb(base.rss)} -> peak ${mb(peak.rss)} (+${mb(peak.rss - base.rss)}), external +${mb(peak.external - base.external)}`);
  return rows;
}

const counts = (process.argv.slice(2).length ? process.argv.slice(2) : ["100000"]).map(Number);
let inserted = 0;
for (const rows of counts) inserted = await exportOnce(rows, inserted);
await stopTestServer();
