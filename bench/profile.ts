// `make bench-profile`: where the process's CPU goes while one workload runs. Seeds as
// `make bench` does, then for each workload samples the V8 profiler during its load and prints
// self time per request by the code it was spent in (this project's modules, each library,
// Node's own HTTP and sockets, garbage collection, idle). The load generator runs in the same
// process: its share is shown on its own line, so the server's is what remains.
import http from "node:http";
import { Session, type Profiler } from "node:inspector/promises";
import type { AddressInfo } from "node:net";
import { configFromEnv } from "../runtime/config.js";
import { openDatabase } from "../runtime/db/connect.js";
import { createApp } from "../runtime/server.js";
import { migrateAll, ensureSuperuser } from "../runtime/cli.js";
import { apis } from "../generated/server.js";
import { run, type Request } from "./load.js";
import { seedCalendar, seedDevices, seedInterfaceAddresses, seedPrefixes } from "./seed.js";
import { floor } from "./floor.js";

const PREFIXES = Number(process.env.BENCH_PREFIXES ?? 20000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
/** The bench's GraphQL workload (bench/run.ts). */
const GRAPHQL_TREE = `query ($o: Int) { devices(name__isw: "bench-dev-", limit: 100, offset: $o) { name interfaces { name ip_addresses { address } } } }`;

/** The bucket a sampled function's self time goes to, from the script it lives in. */
function bucket(node: Profiler.ProfileNode): string {
  const url = node.callFrame.url;
  const name = node.callFrame.functionName;
  if (!url) {
    if (name === "(garbage collector)" || name === "(idle)" || name === "(program)") return name;
    return "native (JSON, regexps, builtins)";
  }
  const lib = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (lib) return `library ${lib[1]}`;
  if (url.startsWith("node:")) return `node ${url.slice(5).split("/")[0]}`;
  const own = /\/(bench|runtime|hooks|generated)\/(.*)$/.exec(url);
  if (!own) return "other";
  if (own[1] === "bench") return own[2].startsWith("floor") ? "bench floor server" : "bench load generator";
  const parts = own[2].split("/");
  return `${own[1]}/${parts.length > 1 ? `${parts[0]}/` : parts[0]}`;
}

/** Self time per bucket, in microseconds. */
function selfTimes(profile: Profiler.Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const key = bucket(byId.get(samples[i])!);
    out.set(key, (out.get(key) ?? 0) + (deltas[i] ?? 0));
  }
  return out;
}

/** Self time per function, with the script and line it lives at, in microseconds. */
function hottest(profile: Profiler.Profile): Array<[string, number]> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i])!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") continue;
    // A builtin is named by its caller, which says what it was working on.
    const parent = url ? undefined : profile.nodes.find((n) => n.children?.includes(node.id))?.callFrame;
    const where = url ? `${url.replace(/^.*\/(node_modules|runtime|bench|hooks)\//, "$1/")}:${lineNumber + 1}`
      : parent ? `called from ${parent.functionName || "(anonymous)"} ${parent.url.replace(/^.*\/(node_modules|runtime|bench|hooks)\//, "$1/")}:${parent.lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`;
    out.set(key, (out.get(key) ?? 0) + (deltas[i] ?? 0));
  }
  return [...out].sort((a, b) => b[1] - a[1]);
}

interface Workload {
  name: string;
  next: () => Request;
  headers?: Record<string, string>;
  /** Requests measured (and concurrency), where fewer, larger ones are the workload. */
  requests?: number;
  concurrency?: number;
}

async function main(): Promise<void> {
  const config = { ...configFromEnv(), logRequests: false, dataDir: process.env.DATABASE_URL ? "" : "memory://" };
  const db = await openDatabase(config);
  await migrateAll(db.knex, apis);
  const { key } = await ensureSuperuser(db.knex, apis, "bench", "bench-password");
  const { ids, relations } = await seedPrefixes(db.knex, PREFIXES);
  await seedDevices(db.knex, DEVICES);
  await seedInterfaceAddresses(db.knex);
  await seedCalendar(db.knex, EVENTS);
  await db.knex.raw("VACUUM ANALYZE");
  const floorDb = db.embedded ? { knex: db.knex.withUserParams({}), close: async () => undefined } : await openDatabase(config);
  const listen = (s: http.Server) => new Promise<string>((resolve) => s.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
  const site = createApp(apis, db.knex, config);
  const armature = http.createServer(site.classes, site);
  const base = floor(floorDb.knex);
  const ours = await listen(armature);
  const floorUrl = await listen(base);
  let i = 0;
  let created = 0;
  const pick = () => ids[i++ % ids.length];
  const eventPage = () => 1 + (i++ % Math.max(1, Math.floor(EVENTS / 50)));
  const get = (url: string): Request => ({ method: "GET", url, expect: 200 });
  const prefix = () => {
    const n = 0x15000000 + created++;
    return {
      prefix: `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}/32`, status: "active", site: relations.site, vrf: relations.vrf,
      tenant: relations.tenant, role: relations.role, vlan: relations.vlan, tags: relations.tags, description: "bench-create",
    };
  };
  const body = () => JSON.stringify(prefix());
  const workloads: Workload[] = [
    { name: "floor: prefix detail", next: () => get(`${floorUrl}/prefixes/${pick()}/`), headers: {} },
    { name: "prefix detail (full, nested)", next: () => get(`${ours}/api/ipam/prefixes/${pick()}/`) },
    { name: "floor: prefix list of 50 + count", next: () => get(`${floorUrl}/prefixes/?offset=${(i++ % 100) * 50}`), headers: {} },
    { name: "prefix list of 50 + count", next: () => get(`${ours}/api/ipam/prefixes/?limit=50&offset=${(i++ % 100) * 50}`) },
    { name: "floor: within=10.0.0.0/8&status=active", next: () => get(`${floorUrl}/prefixes/?within=10.0.0.0/8&status=active&offset=${(i++ % 100) * 50}`), headers: {} },
    { name: "prefix list within=10.0.0.0/8&status=active", next: () => get(`${ours}/api/ipam/prefixes/?within=10.0.0.0/8&status=active&limit=50&offset=${(i++ % 100) * 50}`) },
    { name: "floor: create prefix", next: () => ({ method: "POST", url: `${floorUrl}/prefixes/`, body: body(), expect: 201 }), headers: {} },
    { name: "create prefix, 5 relations + 2 tags", next: () => ({ method: "POST", url: `${ours}/api/ipam/prefixes/`, body: body(), expect: 201 }) },
    { name: "floor: bulk create of 1000 prefixes", next: () => ({ method: "POST", url: `${floorUrl}/prefixes/`, body: JSON.stringify(Array.from({ length: 1000 }, prefix)), expect: 201 }), headers: {}, requests: 5, concurrency: 1 },
    { name: "bulk create of 1000 prefixes, 5 relations + 2 tags", next: () => ({ method: "POST", url: `${ours}/api/ipam/prefixes/`, body: JSON.stringify(Array.from({ length: 1000 }, prefix)), expect: 201 }), requests: 5, concurrency: 1 },
    { name: "device list of 1,000 with config contexts", next: () => get(`${ours}/api/dcim/devices/?limit=1000&offset=${(i++ % Math.max(1, DEVICES / 1000)) * 1000}`), requests: 100 },
    { name: "interface list of 1,000 with connected endpoints and address counts", next: () => get(`${ours}/api/dcim/interfaces/?limit=1000&offset=${(i++ % Math.max(1, (2 * DEVICES) / 1000)) * 1000}`), requests: 100 },
    { name: "floor: 100 devices → interfaces → addresses", next: () => get(`${floorUrl}/device-tree/?limit=100&offset=${(i++ % (DEVICES / 100)) * 100}`), headers: {} },
    {
      name: "GraphQL: 100 devices → interfaces → ip_addresses",
      next: () => ({
        method: "POST", url: `${ours}/api/graphql/`, expect: 200,
        body: JSON.stringify({ query: GRAPHQL_TREE, variables: { o: (i++ % (DEVICES / 100)) * 100 } }),
      }),
    },
    { name: "floor: event archive of 50", next: () => get(`${floorUrl}/events/?page=${eventPage()}`), headers: {} },
    { name: "calendar: event archive of 50, all embedded", next: () => get(`${ours}/wp-json/calendar/events/v1/events?per_page=50&page=${eventPage()}`), headers: {} },
  ];
  const only = process.env.PROFILE_ONLY;
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  for (const w of workloads.filter((x) => !only || x.name.includes(only))) {
    const headers = w.headers ?? { Authorization: `Token ${key}`, Accept: "application/json" };
    const concurrency = w.concurrency ?? CONCURRENCY;
    await run({ next: w.next, headers, concurrency, requests: Math.min(50, w.requests ?? 50), seconds: 5, warmup: 0 });
    await session.post("Profiler.start");
    const result = await run({ next: w.next, headers, concurrency, requests: w.requests ?? REQUESTS, seconds: w.requests ? 60 : 6, warmup: 0 });
    const { profile } = await session.post("Profiler.stop");
    const times = [...selfTimes(profile)].sort((a, b) => b[1] - a[1]);
    const busy = times.filter(([k]) => k !== "(idle)").reduce((n, [, t]) => n + t, 0);
    console.log(`\n${w.name}: ${result.requests} requests, ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, ` +
      `${result.statements.toFixed(1)} SQL/req; process CPU ${(busy / result.requests).toFixed(0)} µs/request`);
    for (const [k, t] of times.slice(0, 14)) console.log(`  ${(t / result.requests).toFixed(0).padStart(6)} µs/req  ${(100 * t / busy).toFixed(1).padStart(5)} %  ${k}`);
    console.log("  hottest functions (self time):");
    for (const [k, t] of hottest(profile).slice(0, Number(process.env.PROFILE_TOP ?? 12))) console.log(`  ${(t / result.requests).toFixed(0).padStart(6)} µs/req  ${k}`);
  }
  armature.close();
  base.close();
  await floorDb.close();
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
