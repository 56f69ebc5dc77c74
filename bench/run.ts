// `make bench`: seeds many prefixes with nested relations, then measures the generated
// inventory API against a hand-written baseline (one SQL statement, JSON built by
// PostgreSQL, no framework) served from the same process and database in the same run.
// Prints throughput, latency percentiles and ratios; asserts nothing. Bounded in count
// and time, loopback only.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { configFromEnv } from "../runtime/config.js";
import { openDatabase } from "../runtime/db/connect.js";
import { createApp } from "../runtime/server.js";
import { migrateAll, ensureSuperuser } from "../runtime/cli.js";
import { apis } from "../generated/server.js";

const PREFIXES = Number(process.env.BENCH_PREFIXES ?? 20000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

interface Result { rps: number; p50: number; p95: number; p99: number; errors: number }

async function load(urls: () => string, headers: Record<string, string>): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const one = (url: string) => new Promise<void>((resolve) => {
    const start = process.hrtime.bigint();
    http.get(url, { agent, headers, timeout: 10000 }, (res) => {
      res.resume();
      res.on("end", () => {
        if (res.statusCode !== 200) errors++;
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
        resolve();
      });
    }).on("error", () => { errors++; resolve(); });
  });
  const began = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) {
      next++;
      await one(urls());
    }
  }));
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { rps: REQUESTS / seconds, p50: pct(0.5), p95: pct(0.95), p99: pct(0.99), errors };
}

async function seed(db: import("knex").Knex): Promise<string[]> {
  await db.raw(`INSERT INTO dcim_site (name, slug, status) SELECT 'bench-site-' || g, 'bench-site-' || g, 'active' FROM generate_series(1, 50) g ON CONFLICT DO NOTHING`);
  await db.raw(`INSERT INTO tenancy_tenant (name, slug) SELECT 'bench-tenant-' || g, 'bench-tenant-' || g FROM generate_series(1, 20) g ON CONFLICT DO NOTHING`);
  await db.raw(`INSERT INTO ipam_vrf (name, rd) SELECT 'bench-vrf-' || g, '65000:' || g FROM generate_series(1, 10) g ON CONFLICT DO NOTHING`);
  const existing = Number((await db.raw("SELECT count(*) AS n FROM ipam_prefix WHERE description = 'bench'")).rows[0].n);
  if (existing < PREFIXES) {
    await db.raw(`
      WITH s AS (SELECT array_agg(id) a FROM dcim_site WHERE slug LIKE 'bench-site-%'),
           t AS (SELECT array_agg(id) a FROM tenancy_tenant WHERE slug LIKE 'bench-tenant-%'),
           v AS (SELECT array_agg(id) a FROM ipam_vrf WHERE name LIKE 'bench-vrf-%')
      INSERT INTO ipam_prefix (prefix, status, site_id, tenant_id, vrf_id, description)
      SELECT set_masklen(('10.0.0.0'::inet + (g * 256)), 24)::cidr, 'active',
             s.a[1 + g % 50], t.a[1 + g % 20], v.a[1 + g % 10], 'bench'
      FROM generate_series(?::int, ?::int) g, s, t, v`, [existing + 1, PREFIXES]);
    await db.raw("ANALYZE");
  }
  return (await db.raw("SELECT id FROM ipam_prefix WHERE description = 'bench' ORDER BY id LIMIT 500")).rows.map((r: { id: string }) => r.id);
}

/** The baseline: what a careful hand-written server does, one statement, JSON from PostgreSQL. */
function baseline(db: import("knex").Knex): http.Server {
  const detailSql = `SELECT json_build_object('id', p.id, 'prefix', p.prefix::text, 'status', p.status,
      'site', (SELECT json_build_object('id', s.id, 'name', s.name, 'slug', s.slug) FROM dcim_site s WHERE s.id = p.site_id),
      'tenant', (SELECT json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) FROM tenancy_tenant t WHERE t.id = p.tenant_id),
      'vrf', (SELECT json_build_object('id', v.id, 'name', v.name, 'rd', v.rd) FROM ipam_vrf v WHERE v.id = p.vrf_id)) AS j
    FROM ipam_prefix p WHERE p.id = ?`;
  return http.createServer((req, res) => {
    const id = (req.url ?? "").split("/")[2];
    db.raw(detailSql, [id]).then((r) => {
      const row = r.rows[0];
      res.writeHead(row ? 200 : 404, { "Content-Type": "application/json" });
      res.end(row ? JSON.stringify(row.j) : "{}");
    }, (err: Error) => {
      res.writeHead(500);
      res.end(err.message);
    });
  });
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

async function main(): Promise<void> {
  const config = { ...configFromEnv(), logRequests: false, dataDir: process.env.DATABASE_URL ? "" : "memory://" };
  const db = await openDatabase(config);
  await migrateAll(db.knex, apis);
  const { key } = await ensureSuperuser(db.knex, apis, "bench", "bench-password");
  const t0 = Date.now();
  const ids = await seed(db.knex);
  console.log(`database: ${db.embedded ? "embedded PGlite (in memory)" : "PostgreSQL (DATABASE_URL)"}; ${PREFIXES} prefixes seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`load: ${REQUESTS} requests per scenario, ${CONCURRENCY} concurrent, keep-alive, loopback\n`);
  const armature = http.createServer(createApp(apis, db.knex, config));
  const ours = await listen(armature);
  const base = baseline(db.knex);
  const baseUrl = await listen(base);
  const auth = { Authorization: `Token ${key}` };
  let i = 0;
  const pick = () => ids[i++ % ids.length];
  const scenarios: Array<[string, () => string, Record<string, string>]> = [
    ["baseline: hand-written detail (1 statement)", () => `${baseUrl}/p/${pick()}`, {}],
    ["armature: prefix detail (full, nested)", () => `${ours}/api/ipam/prefixes/${pick()}/`, auth],
    ["armature: prefix detail ?brief=1", () => `${ours}/api/ipam/prefixes/${pick()}/?brief=1`, auth],
    ["armature: prefix list of 50 with count", () => `${ours}/api/ipam/prefixes/?limit=50&offset=${(i++ % 100) * 50}`, auth],
    ["armature: list filtered within=10.1.0.0/16", () => `${ours}/api/ipam/prefixes/?within=10.1.0.0/16&limit=50`, auth],
    ["armature: list filtered site=<slug>&status=active", () => `${ours}/api/ipam/prefixes/?site=bench-site-${1 + (i++ % 50)}&status=active&limit=50`, auth],
    ["armature: list filtered site=<slug>&description__re=^b", () => `${ours}/api/ipam/prefixes/?site=bench-site-${1 + (i++ % 50)}&description__re=^b&limit=50`, auth],
  ];
  console.log("scenario".padEnd(52), "req/s".padStart(8), "p50 ms".padStart(8), "p95 ms".padStart(8), "p99 ms".padStart(8), "errors".padStart(7), "vs baseline".padStart(12));
  let baseRps = 0;
  for (const [name, url, headers] of scenarios) {
    const r = await load(url, headers);
    baseRps ||= r.rps;
    console.log(name.padEnd(52), r.rps.toFixed(0).padStart(8), r.p50.toFixed(2).padStart(8), r.p95.toFixed(2).padStart(8), r.p99.toFixed(2).padStart(8),
      String(r.errors).padStart(7), `${(r.rps / baseRps).toFixed(2)}x`.padStart(12));
  }
  armature.close();
  base.close();
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
