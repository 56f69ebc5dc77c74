// `make bench`: seeds many prefixes with nested relations, cabled devices, and calendar
// events with their venues, organizers and terms, then measures the generated inventory and calendar APIs
// against a hand-written baseline (one SQL statement, JSON built by PostgreSQL, no
// framework) served from the same process and database in the same run.
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
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
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
  }
  return (await db.raw("SELECT id FROM ipam_prefix WHERE description = 'bench' ORDER BY id LIMIT 500")).rows.map((r: { id: string }) => r.id);
}

/**
 * Devices in one site, each with two interfaces; each device's eth1 is cabled to the next
 * one's eth0, with the cable peers and connected endpoints a trace would record; three
 * config contexts apply to every device.
 */
async function seedDevices(db: import("knex").Knex): Promise<void> {
  if (Number((await db.raw("SELECT count(*) AS n FROM dcim_device WHERE name LIKE 'bench-dev-%'")).rows[0].n) >= DEVICES) return;
  await db.raw(`INSERT INTO dcim_manufacturer (name, slug) VALUES ('bench-maker', 'bench-maker') ON CONFLICT DO NOTHING`);
  await db.raw(`INSERT INTO dcim_devicetype (manufacturer_id, model, slug) SELECT id, 'bench-type', 'bench-type' FROM dcim_manufacturer WHERE slug = 'bench-maker' ON CONFLICT DO NOTHING`);
  await db.raw(`INSERT INTO dcim_devicerole (name, slug) VALUES ('bench-role', 'bench-role') ON CONFLICT DO NOTHING`);
  await db.raw(`
    INSERT INTO dcim_device (name, device_type_id, device_role_id, site_id, status)
    SELECT 'bench-dev-' || lpad(g::text, 5, '0'), (SELECT id FROM dcim_devicetype WHERE slug = 'bench-type'),
           (SELECT id FROM dcim_devicerole WHERE slug = 'bench-role'), (SELECT id FROM dcim_site WHERE slug = 'bench-site-1'), 'active'
    FROM generate_series(1, ?::int) g`, [DEVICES]);
  await db.raw(`INSERT INTO dcim_interface (device_id, name, type, status) SELECT d.id, n, '10gbase-x-sfpp', 'active' FROM dcim_device d, unnest(ARRAY['eth0', 'eth1']) n WHERE d.name LIKE 'bench-dev-%'`);
  await db.raw(`
    WITH pairs AS (
      SELECT a.id AS a_id, a.device_id AS a_dev, b.id AS b_id, b.device_id AS b_dev
      FROM dcim_device d JOIN dcim_device e ON e.name = 'bench-dev-' || lpad((substr(d.name, 11)::int + 1)::text, 5, '0')
      JOIN dcim_interface a ON a.device_id = d.id AND a.name = 'eth1' JOIN dcim_interface b ON b.device_id = e.id AND b.name = 'eth0'
      WHERE d.name LIKE 'bench-dev-%')
    INSERT INTO dcim_cable (termination_a_type, termination_a_id, termination_b_type, termination_b_id, termination_a_device_id, termination_b_device_id, status)
    SELECT 'dcim.interface', a_id, 'dcim.interface', b_id, a_dev, b_dev, 'connected' FROM pairs`);
  // Three config contexts every device matches (global, by role, by site), merged into each.
  await db.raw(`INSERT INTO extras_configcontext (name, weight, data) VALUES
    ('bench-global', 100, '{"ntp": {"servers": ["10.0.0.1"]}, "dns": ["10.0.0.53"]}'),
    ('bench-role', 200, '{"ntp": {"prefer": true}, "syslog": {"host": "10.0.0.514"}}'),
    ('bench-site', 300, '{"dns": ["10.1.0.53"], "snmp": {"community": "bench"}}')`);
  await db.raw(`INSERT INTO extras_configcontext_roles (source_id, devicerole_id) SELECT c.id, r.id FROM extras_configcontext c, dcim_devicerole r WHERE c.name = 'bench-role' AND r.slug = 'bench-role'`);
  await db.raw(`INSERT INTO extras_configcontext_sites (source_id, site_id) SELECT c.id, s.id FROM extras_configcontext c, dcim_site s WHERE c.name = 'bench-site' AND s.slug = 'bench-site-1'`);
  for (const [near, far] of [["a", "b"], ["b", "a"]]) {
    await db.raw(`
      UPDATE dcim_interface i SET cable_id = c.id, cable_peer_type = 'dcim.interface', cable_peer_id = c.termination_${far}_id,
        connected_endpoint_type = 'dcim.interface', connected_endpoint_id = c.termination_${far}_id, connected_endpoint_reachable = true
      FROM dcim_cable c WHERE c.termination_${near}_id = i.id AND c.termination_a_device_id IS NOT NULL`);
  }
}

const ALLOCATED_IPS = Number(process.env.BENCH_ALLOCATED_IPS ?? 100000);
const ALLOCATORS = 32;

/**
 * A /8 whose first ALLOCATED_IPS addresses are taken, in a VRF of its own: every allocation
 * must walk past all of them to the first free address. Gives the prefix's id.
 */
async function seedAllocation(db: import("knex").Knex): Promise<string> {
  await db.raw(`INSERT INTO ipam_vrf (name, rd) VALUES ('bench-alloc', '65001:1') ON CONFLICT DO NOTHING`);
  const vrf = (await db("ipam_vrf").where({ rd: "65001:1" }).first()).id;
  await db("ipam_ipaddress").where({ vrf_id: vrf }).where("description", "bench-allocated").del();
  await db("ipam_prefix").where({ vrf_id: vrf }).del();
  if (Number((await db.raw("SELECT count(*) AS n FROM ipam_ipaddress WHERE vrf_id = ?", [vrf])).rows[0].n) < ALLOCATED_IPS) {
    await db("ipam_ipaddress").where({ vrf_id: vrf }).del();
    await db.raw(`INSERT INTO ipam_ipaddress (address, vrf_id, status) SELECT set_masklen('11.0.0.0'::inet + g, 8), ?, 'active' FROM generate_series(1, ?::int) g`, [vrf, ALLOCATED_IPS]);
  }
  return (await db("ipam_prefix").insert({ prefix: "11.0.0.0/8", vrf_id: vrf, status: "active" }).returning("id"))[0].id;
}

/** ALLOCATORS clients each POSTing to available-ips until `total` addresses are handed out. */
async function allocate(url: string, headers: Record<string, string>, total: number): Promise<Result & { distinct: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: ALLOCATORS });
  const latencies: number[] = [];
  const addresses: string[] = [];
  let errors = 0;
  let next = 0;
  const body = JSON.stringify({ status: "active", description: "bench-allocated" });
  const one = () => new Promise<void>((resolve) => {
    const start = process.hrtime.bigint();
    const req = http.request(url, { method: "POST", agent, headers: { ...headers, "Content-Type": "application/json" }, timeout: 30000 }, (res) => {
      let text = "";
      res.on("data", (c) => { text += c; });
      res.on("end", () => {
        if (res.statusCode === 201) addresses.push(JSON.parse(text).address);
        else errors++;
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
        resolve();
      });
    });
    req.on("error", () => { errors++; resolve(); });
    req.end(body);
  });
  const began = process.hrtime.bigint();
  await Promise.all(Array.from({ length: ALLOCATORS }, async () => {
    while (next < total) {
      next++;
      await one();
    }
  }));
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { rps: total / seconds, p50: pct(0.5), p95: pct(0.95), p99: pct(0.99), errors, distinct: new Set(addresses).size };
}

/** Events a week apart from tomorrow on (inside the default archive window), each with a venue, two organizers, a category and two tags. */
async function seedCalendar(db: import("knex").Knex): Promise<void> {
  if (Number((await db.raw("SELECT count(*) AS n FROM events_event WHERE excerpt = 'bench'")).rows[0].n) >= EVENTS) return;
  await db.raw(`INSERT INTO venues_venue (venue, slug, city) SELECT 'Bench venue ' || g, 'bench-venue-' || g, 'Oslo' FROM generate_series(1, 40) g`);
  await db.raw(`INSERT INTO organizers_organizer (organizer, slug) SELECT 'Bench organizer ' || g, 'bench-organizer-' || g FROM generate_series(1, 40) g`);
  await db.raw(`INSERT INTO events_category (name, slug) SELECT 'Bench category ' || g, 'bench-category-' || g FROM generate_series(1, 10) g`);
  await db.raw(`INSERT INTO events_tag (name, slug) SELECT 'Bench tag ' || g, 'bench-tag-' || g FROM generate_series(1, 20) g`);
  await db.raw(`
    WITH v AS (SELECT array_agg(id ORDER BY id) a FROM venues_venue WHERE slug LIKE 'bench-venue-%')
    INSERT INTO events_event (title, slug, excerpt, start_date, end_date, utc_start_date, utc_end_date, timezone, venue_id)
    SELECT 'Bench event ' || g, 'bench-event-' || g, 'bench', d, d + interval '2 hours', d, d + interval '2 hours', 'UTC', v.a[1 + g % 40]
    FROM generate_series(1, ?::int) g, v, LATERAL (SELECT date_trunc('day', now()) + interval '1 day' + (g % 500) * interval '1 day' + interval '10 hours' AS d) t`, [EVENTS]);
  const events = "SELECT id, row_number() OVER (ORDER BY id) AS n FROM events_event WHERE excerpt = 'bench'";
  const pick = (table: string) => `(SELECT array_agg(id ORDER BY id) a FROM ${table} WHERE slug LIKE 'bench-%')`;
  await db.raw(`INSERT INTO events_event_organizer (source_id, organizer_id) SELECT e.id, o.a[1 + (e.n + k) % 40] FROM (${events}) e, ${pick("organizers_organizer")} o, generate_series(0, 1) k`);
  await db.raw(`INSERT INTO events_event_categories (source_id, category_id) SELECT e.id, c.a[1 + e.n % 10] FROM (${events}) e, ${pick("events_category")} c`);
  await db.raw(`INSERT INTO events_event_tags (source_id, tag_id) SELECT e.id, t.a[1 + (e.n + k * 7) % 20] FROM (${events}) e, ${pick("events_tag")} t, generate_series(0, 1) k`);
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
  await seedCalendar(db.knex);
  await seedDevices(db.knex);
  const pool = await seedAllocation(db.knex);
  // As autovacuum leaves a live database: statistics current, visibility maps set (so
  // counts over join tables can be index-only scans).
  await db.knex.raw("VACUUM ANALYZE");
  console.log(`database: ${db.embedded ? "embedded PGlite (in memory)" : "PostgreSQL (DATABASE_URL)"}; ${PREFIXES} prefixes, ${EVENTS} events, ${DEVICES} cabled devices, ${ALLOCATED_IPS} addresses in a /8 seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
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
    ["armature: device list of 1000, 3 config contexts each", () => `${ours}/api/dcim/devices/?site=bench-site-1&limit=1000`, auth],
    ["armature: same, exclude=config_context", () => `${ours}/api/dcim/devices/?site=bench-site-1&limit=1000&exclude=config_context`, auth],
    ["armature: interface list of 50, peers and endpoints", () => `${ours}/api/dcim/interfaces/?cabled=true&limit=50&offset=${(i++ % 30) * 50}`, auth],
    ["armature: cable list of 50, both ends nested", () => `${ours}/api/dcim/cables/?limit=50&offset=${(i++ % 15) * 50}`, auth],
    ["calendar: event archive of 50, all embedded", () => `${ours}/wp-json/calendar/events/v1/events?per_page=50&page=${1 + (i++ % 40)}`, {}],
    ["calendar: events by category slug and venue", () => `${ours}/wp-json/calendar/events/v1/events?per_page=50&categories=bench-category-${1 + (i++ % 10)}&venue=${1 + (i % 40)}`, {}],
    ["calendar: category archive with counts", () => `${ours}/wp-json/calendar/events/v1/categories?per_page=50`, {}],
  ];
  console.log("scenario".padEnd(52), "req/s".padStart(8), "p50 ms".padStart(8), "p95 ms".padStart(8), "p99 ms".padStart(8), "errors".padStart(7), "vs baseline".padStart(12));
  let baseRps = 0;
  for (const [name, url, headers] of scenarios) {
    const r = await load(url, headers);
    baseRps ||= r.rps;
    console.log(name.padEnd(52), r.rps.toFixed(0).padStart(8), r.p50.toFixed(2).padStart(8), r.p95.toFixed(2).padStart(8), r.p99.toFixed(2).padStart(8),
      String(r.errors).padStart(7), `${(r.rps / baseRps).toFixed(2)}x`.padStart(12));
  }
  const total = ALLOCATORS * 20;
  const a = await allocate(`${ours}/api/ipam/prefixes/${pool}/available-ips/`, auth, total);
  console.log(`${`armature: available-ips POST, 32 clients, ${ALLOCATED_IPS} used`.padEnd(52)} ${a.rps.toFixed(0).padStart(8)} ${a.p50.toFixed(2).padStart(8)} ${a.p95.toFixed(2).padStart(8)} ${a.p99.toFixed(2).padStart(8)} ${String(a.errors).padStart(7)}`);
  console.log(`  ${total} allocations, ${a.distinct} distinct addresses${a.distinct === total - a.errors ? "" : " (DUPLICATES HANDED OUT)"}`);
  armature.close();
  base.close();
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
