// `BENCH_REPLICA=1 make bench`: read throughput with reads on a streaming replica against the
// primary alone. Makes a PostgreSQL cluster of its own (initdb, pg_ctl on a free port) and a
// replica of it (pg_basebackup -R), seeds prefixes, and serves the inventory API from this
// process twice: on the primary alone, and with DATABASE_REPLICA_URLS naming the replica. Each
// scenario runs against both in turn. On one machine the replica shares the cores with the
// primary and the load generator, so it is not faster here: the figures show what routing
// costs (the per-read look-up of the reader's last write on the primary, the replica's
// catch-up check) and that reads run there. Writes are measured too, for the position each
// commit records. Prints the table; asserts nothing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { configFromEnv } from "../runtime/config.js";
import { openDatabase, type Database } from "../runtime/db/connect.js";
import { createApp } from "../runtime/server.js";
import { migrateAll, ensureSuperuser } from "../runtime/cli.js";
import { apis } from "../generated/server.js";
import { run, KEEP_ALIVE_SECONDS, type Request } from "./load.js";
import { seedPrefixes } from "./seed.js";
import { table, type Row } from "./report.js";
import { Cluster, clustersAvailable } from "../test/support/clusters.js";
import { freePort } from "../test/support/waiting.js";

const PREFIXES = Number(process.env.BENCH_PREFIXES ?? 20000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);

async function serveOn(db: Database, config: ReturnType<typeof configFromEnv>): Promise<{ url: string; close: () => void }> {
  const site = createApp(apis, db.knex, config);
  const server = http.createServer(site.classes, site);
  server.keepAliveTimeout = KEEP_ALIVE_SECONDS * 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

export async function replicaBench(): Promise<void> {
  if (!clustersAvailable()) throw new Error("BENCH_REPLICA=1 needs PostgreSQL's server tools (initdb, pg_basebackup): set PG_BIN, or install them as .ci/run does");
  const primary = await Cluster.init(await freePort());
  let replica: Cluster | undefined;
  const opened: Database[] = [];
  const servers: Array<{ close: () => void }> = [];
  try {
    await primary.start();
    const base = { ...configFromEnv({ DATABASE_URL: primary.url }), logRequests: false };
    const seeding = await openDatabase(base);
    opened.push(seeding);
    await migrateAll(seeding.knex, apis);
    const { key } = await ensureSuperuser(seeding.knex, apis, "bench", "bench-password");
    const { ids, relations } = await seedPrefixes(seeding.knex, PREFIXES);
    await seeding.knex.raw("VACUUM ANALYZE");
    replica = await Cluster.replicaOf(primary, await freePort());
    await replica.start();

    const alone = await openDatabase(base);
    const withReplica = { ...base, replicaUrls: [replica.url] };
    const routed = await openDatabase(withReplica);
    opened.push(alone, routed);
    const [onPrimary, onReplica] = [await serveOn(alone, base), await serveOn(routed, withReplica)];
    servers.push(onPrimary, onReplica);
    // The routing instance has polled the replica and found it caught up.
    await new Promise((r) => setTimeout(r, 1000));

    let i = 0;
    let made = 0;
    const get = (url: string): Request => ({ method: "GET", url, expect: 200 });
    const scenarios: Array<{ name: string; next: (url: string) => Request }> = [
      { name: "prefix list of 50 + count", next: (url) => get(`${url}/api/ipam/prefixes/?limit=50&offset=${(i++ % 100) * 50}`) },
      { name: "prefix detail (full, nested)", next: (url) => get(`${url}/api/ipam/prefixes/${ids[i++ % ids.length]}/`) },
      {
        name: "prefix create",
        next: (url) => {
          const n = 0x15000000 + made++;
          const prefix = `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}/32`;
          return { method: "POST", url: `${url}/api/ipam/prefixes/`, expect: 201, body: JSON.stringify({ prefix, status: "active", site: relations.site, tenant: relations.tenant, tags: relations.tags }) };
        },
      },
    ];
    const headers = { Authorization: `Token ${key}`, Accept: "application/json" };
    const rows: Row[] = [];
    // Each pair twice, in both orders, so that neither side is always the one that warms up.
    const sides = [["primary alone", onPrimary], ["reads on the replica", onReplica]] as const;
    for (const s of scenarios) {
      for (const [where, server] of [...sides, ...[...sides].reverse()]) {
        const result = await run({ next: () => s.next(server.url), headers, concurrency: CONCURRENCY, requests: REQUESTS, seconds: SECONDS, warmup: CONCURRENCY });
        const row = { name: `${s.name}, ${where}`, result };
        console.log(`${row.name}: ${result.rps.toFixed(1)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.errors} errors`);
        rows.push(row);
      }
    }
    console.log(`\nPostgreSQL, ${PREFIXES} prefixes, one streaming replica on the same machine, ${CONCURRENCY} clients, in this process:\n`);
    console.log(table(rows));
  } finally {
    for (const s of servers) s.close();
    for (const db of opened) await db.close();
    await replica?.remove();
    await primary.remove();
  }
}
