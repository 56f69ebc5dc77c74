// `armature dump` and `armature load` as an operator runs them, each a process of its own:
// the demo data and objects of the models it lacks (a webhook with its queued deliveries, an
// image attachment and its file, a config context, a calendar event, tokens and application
// passwords, and one of every other model, the BGP app's and the jobs' included, with rows in
// every link table: every table but the runtime's passing state holds rows) go from an embedded database to PostgreSQL and back to a new embedded one, and
// every API answers the same at each step; the last dump is the first one line for line. A
// database holding rows and a dump cut short are refused with exit 1 and change nothing.
// PostgreSQL: databases of the test's own on the server of DATABASE_URL (default: the local
// test server), made and dropped by the test, in both passes of the suite.
//
// The source starts as a migrated data directory with the administrator, made in this process
// (test/support/dump-fixtures.ts) rather than by `armature createsuperuser` on a new DATA_DIR:
// what is dumped is what `armature run` then loads and serves there. The new embedded database
// is a new cluster written there the same way, not initdb run again. The refusals are asked of
// PostgreSQL databases: load refuses the same on either engine, and a refusal there needs no
// embedded database opened for each.
import { expect } from "chai";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import knex from "knex";
import { ensureSuperuser, profileCommand } from "../../runtime/cli.js";
import { apis } from "../../generated/server.js";
import { builtCli } from "../support/build.js";
import { migratedDataDir, newDataDir } from "../support/dump-fixtures.js";
import { eventually, freePort } from "../support/waiting.js";

const work = mkdtempSync(join(tmpdir(), "armature-dumpload-"));
const adminUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const pgName = `dumpload_rt_${process.pid}`;
/** The database a dump cut short is loaded into: new, and left as it was. */
const cutName = `dumpload_cut_${process.pid}`;

function urlOf(name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
const pgUrl = urlOf(pgName);
const TOKEN = "0123456789abcdef0123456789abcdef01234567";

interface Place { env: NodeJS.ProcessEnv; media: string }

/**
 * The BGP app served, and a job-button receiver found beside the shipped jobs, in every place:
 * their models get objects too. JOBS_ROOT is set once the build is known (`jobsFolders`).
 */
const EVERY_APP: Record<string, string> = { PLUGINS: "bgp" };

/**
 * The build's shipped jobs and a folder with a job-button receiver (the shipped jobs have none),
 * as JavaScript the built command line loads: test/jobs is TypeScript, which plain node does not.
 */
function jobsFolders(cliPath: string): string {
  const folder = join(work, "jobs");
  mkdirSync(folder, { recursive: true });
  const define = pathToFileURL(join(dirname(dirname(cliPath)), "runtime", "features", "jobs", "define.js")).href;
  writeFileSync(join(folder, "dump_jobs.mjs"), [
    `import { jobButtonReceiver } from ${JSON.stringify(define)};`,
    `export const grouping = "Dump";`,
    `export const DumpButton = jobButtonReceiver({ name: "Dump button", hasSensitiveVariables: false, async receiveJobButton(obj) { return String(obj.id); } });`,
    "",
  ].join("\n"));
  return `${join(dirname(dirname(cliPath)), "jobs")}:${folder}`;
}
/** Tables of the runtime's passing state, not objects: throttled logins, live workers, rate-limit buckets, replicas' read positions. */
const STATE_TABLES = ["armature_auth_failures", "armature_queue_workers", "armature_rate_limits", "armature_read_positions"];

/** An embedded database in a folder of its own, or the test's PostgreSQL database; each with its media folder. */
function embedded(name: string): Place {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: join(work, name), MEDIA_ROOT: join(work, `${name}-media`), ADMIN_PASSWORD: "admin-pw", QUEUE_RETRY_DELAY: "3600", RATE_LIMIT_ENABLED: "0", ...EVERY_APP };
  delete env.DATABASE_URL;
  return { env, media: env.MEDIA_ROOT! };
}
// `run` turns rate limits on (the demo's setting); the test reads more than a budget at once.
function postgresPlace(url: string, media: string): Place {
  return { env: { ...process.env, DATABASE_URL: url, MEDIA_ROOT: join(work, media), QUEUE_RETRY_DELAY: "3600", RATE_LIMIT_ENABLED: "0", ...EVERY_APP }, media: join(work, media) };
}
const postgres = postgresPlace(pgUrl, "pg-media");

interface Ran { code: number | null; out: string; err: string }

/**
 * The command line as `npm start` runs it, from the run's build (test/support/build.ts, which
 * the run's other process tests build first): under plain node a process starts in a third of
 * the CPU it takes under tsx, and the test starts a dozen.
 */
let cli: string;

function armature(place: Place, ...args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: place.env });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

async function ok(place: Place, ...args: string[]): Promise<Ran> {
  const ran = await armature(place, ...args);
  expect(ran.code, `armature ${args.join(" ")}: ${ran.out}${ran.err}`).to.equal(0);
  return ran;
}

/** Serves `place` (`run`: demo data once, the admin), runs `work` against its base URL, then stops it. */
async function serving<T>(place: Place, work: (base: string) => Promise<T>): Promise<T> {
  const port = await freePort();
  const child = spawn(process.execPath, [cli, "run", "--port", String(port)], { env: place.env });
  let out = "";
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      if (/admin login/.test(out)) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("close", (code) => reject(new Error(`run exited ${code}: ${out}`)));
  });
  try {
    return await work(`http://127.0.0.1:${port}`);
  } finally {
    child.kill("SIGTERM");
    await closed;
  }
}

const auth = { Authorization: `Token ${TOKEN}` };

const V15 = { Accept: "application/json; version=1.5" };

async function send(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = auth): Promise<any> {
  return sendJson(base, method, path, body, headers);
}

async function sendJson(base: string, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<any> {
  const res = await fetch(`${base}${path}`, { method, headers: { ...headers, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).to.be.oneOf([200, 201]);
  return JSON.parse(text);
}

/**
 * Objects of every model the demo data and the test's other objects leave empty, and rows of
 * every link table, through the API: what "every model" in the round trip means.
 */
async function everyModel(base: string): Promise<void> {
  const send = (method: string, path: string, body?: unknown) => sendJson(base, method, path, body, { ...auth, ...V15 });
  const first = async (path: string) => (await send("GET", `${path}?limit=1`)).results[0];
  const site = await first("/api/dcim/sites/");
  const admin = (await send("GET", "/api/users/users/?username=admin")).results[0] ?? await first("/api/users/users/");
  const mfr = await send("POST", "/api/dcim/manufacturers/", { name: "Dump Maker", slug: "dump-maker" });
  const role = await send("POST", "/api/dcim/device-roles/", { name: "Dump Role", slug: "dump-role" });
  const dt = await send("POST", "/api/dcim/device-types/", { manufacturer: mfr.id, model: "Dump Chassis", slug: "dump-chassis", subdevice_role: "parent" });
  await send("POST", "/api/dcim/device-bay-templates/", { device_type: dt.id, name: "bay 1" });
  await send("POST", "/api/dcim/power-outlet-templates/", { device_type: dt.id, name: "outlet 1" });
  const vc = await send("POST", "/api/dcim/virtual-chassis/", { name: "dump-vc" });
  const device = await send("POST", "/api/dcim/devices/", { name: "dump-chassis-1", device_type: dt.id, device_role: role.id, site: site.id, status: "active", virtual_chassis: vc.id, vc_position: 1 });
  const rack = await send("POST", "/api/dcim/racks/", { name: "dump-rack", site: site.id, status: "active" });
  await send("POST", "/api/dcim/rack-reservations/", { rack: rack.id, units: [1, 2], user: admin.id, description: "held for the dump" });
  await send("POST", "/api/extras/custom-links/", { name: "dump link", content_type: "dcim.site", text: "Map", target_url: "https://maps.example/{{ obj.slug }}", new_window: false });
  await send("POST", "/api/extras/export-templates/", { name: "dump export", content_type: "dcim.site", template_code: "{% for s in queryset %}{{ s.name }}\n{% endfor %}" });
  await send("POST", "/api/extras/git-repositories/", { name: "dump repo", slug: "dump-repo", remote_url: "https://git.example.invalid/repo.git", branch: "main", provided_contents: [] });
  await send("POST", "/api/extras/graphql-queries/", { name: "dump query", query: "{ sites { name } }" });
  // The BGP app's models (PLUGINS=bgp in every place).
  const asn = await send("POST", "/api/plugins/bgp/autonomous-systems/", { asn: 4200000123, status: "active" });
  await send("POST", "/api/plugins/bgp/peering-roles/", { name: "dump peers", slug: "dump-peers", color: "00ff00" });
  const ri = await send("POST", "/api/plugins/bgp/routing-instances/", { device: device.id, autonomous_system: asn.id, status: "active" });
  await send("POST", "/api/plugins/bgp/peer-group-templates/", { name: "dump template" });
  await send("POST", "/api/plugins/bgp/peer-groups/", { name: "dump group", routing_instance: ri.id });
  await send("POST", "/api/plugins/bgp/address-families/", { afi_safi: "ipv4_unicast", routing_instance: ri.id });
  const peering = await send("POST", "/api/plugins/bgp/peerings/", { status: "active" });
  await send("POST", "/api/plugins/bgp/peer-endpoints/", { peering: peering.id, routing_instance: ri.id });
  // Link tables: tagged VLANs of both interface kinds, and each of a config context's.
  const vlan = await send("POST", "/api/ipam/vlans/", { name: "dump vlan", vid: 3999, status: "active" });
  await send("POST", "/api/dcim/interfaces/", { device: device.id, name: "eth0", type: "1000base-t", status: "active", mode: "tagged", tagged_vlans: [vlan.id] });
  const ctype = await send("POST", "/api/virtualization/cluster-types/", { name: "dump ct", slug: "dump-ct" });
  const cgroup = await send("POST", "/api/virtualization/cluster-groups/", { name: "dump cg", slug: "dump-cg" });
  const cl = await send("POST", "/api/virtualization/clusters/", { name: "dump cluster", type: ctype.id, group: cgroup.id });
  const vm = await send("POST", "/api/virtualization/virtual-machines/", { name: "dump vm", cluster: cl.id, status: "active" });
  await send("POST", "/api/virtualization/interfaces/", { virtual_machine: vm.id, name: "vnic0", status: "active", mode: "tagged", tagged_vlans: [vlan.id] });
  const platform = await send("POST", "/api/dcim/platforms/", { name: "dump os", slug: "dump-os" });
  const tg = await send("POST", "/api/tenancy/tenant-groups/", { name: "dump tg", slug: "dump-tg" });
  const tenant = await send("POST", "/api/tenancy/tenants/", { name: "dump tenant", slug: "dump-tenant", group: tg.id });
  const tag = await send("POST", "/api/extras/tags/", { name: "dump tag", slug: "dump-tag", content_types: ["dcim.device"] });
  const ltype = await send("POST", "/api/dcim/location-types/", { name: "dump lt", slug: "dump-lt", content_types: [] });
  const loc = await send("POST", "/api/dcim/locations/", { name: "dump loc", slug: "dump-loc", location_type: ltype.id, site: site.id, status: "active" });
  await send("POST", "/api/extras/config-contexts/", { name: "dump every link", weight: 2000, data: { a: 1 }, cluster_groups: [cgroup.id], device_types: [dt.id], locations: [loc.id], platforms: [platform.id], tags: [tag.slug], tenant_groups: [tg.id], tenants: [tenant.id] });
  // A job button and a job hook (their receivers), a schedule, and a run with its result and log.
  const jobs = (await send("GET", "/api/extras/jobs/?limit=1000")).results as Array<{ id: string; job_class_name: string }>;
  const byName = (n: string) => jobs.find((j) => j.job_class_name === n) ?? expect.fail(`no job ${n} among ${jobs.map((j) => j.job_class_name).join(", ")}`);
  for (const n of ["DumpButton", "DeviceChangeCheck", "DevicesWithoutPrimaryIp"]) await send("PATCH", `/api/extras/jobs/${byName(n).id}/`, { enabled: true });
  await send("POST", "/api/extras/job-buttons/", { name: "dump button", text: "Press", job: byName("DumpButton").id, content_types: ["dcim.site"] });
  await send("POST", "/api/extras/job-hooks/", { name: "dump hook", job: byName("DeviceChangeCheck").id, content_types: ["dcim.device"], type_delete: true });
  await send("POST", `/api/extras/jobs/${byName("DevicesWithoutPrimaryIp").id}/run/`, { data: {}, schedule: { name: "dump schedule", interval: "future", start_time: "2099-01-01T00:00:00Z" } });
  await send("POST", `/api/extras/jobs/${byName("DevicesWithoutPrimaryIp").id}/run/`, { data: {} });
  // Each run ended (the git repository's sync, which cannot reach its remote, too): their state is what is dumped.
  await eventually(async () => {
    const results = (await send("GET", "/api/extras/job-results/?limit=1000")).results as Array<{ status: { value: string } }>;
    return results.length > 0 && results.every((r) => !["pending", "running"].includes(r.status.value)) ? true : undefined;
  }, "every job result ended");
}

/** Lists the test compares, each answer with the server's own address taken out. */
const LISTS = [
  "/api/dcim/sites/?limit=1000", "/api/dcim/devices/?limit=1000", "/api/dcim/interfaces/?limit=1000", "/api/dcim/cables/?limit=1000",
  "/api/ipam/prefixes/?limit=1000", "/api/ipam/ip-addresses/?limit=1000", "/api/extras/object-changes/?limit=1000",
  "/api/extras/image-attachments/", "/api/extras/config-contexts/", "/api/extras/webhooks/", "/api/extras/content-types/?limit=1000",
  "/api/extras/statuses/?limit=1000", "/api/extras/tags/?limit=1000", "/api/extras/jobs/?limit=1000", "/api/users/tokens/", "/api/users/users/",
  "/api/tenancy/tenants/?limit=1000", "/api/virtualization/virtual-machines/?limit=1000",
  "/wp-json/calendar/events/v1/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01", "/wp-json/calendar/events/v1/categories?per_page=50",
  "/wp-json/calendar/events/v1/venues?per_page=50", "/wp-json/calendar/events/v1/organizers?per_page=50", "/wp-json/calendar/events/v1/tags?per_page=50",
  "/api/dcim/device-bays/", "/api/dcim/device-bay-templates/", "/api/dcim/power-outlets/", "/api/dcim/power-outlet-templates/", "/api/dcim/rack-reservations/",
  "/api/dcim/virtual-chassis/", "/api/extras/custom-links/", "/api/extras/export-templates/", "/api/extras/git-repositories/", "/api/extras/graphql-queries/",
  "/api/extras/job-buttons/", "/api/extras/job-hooks/", "/api/extras/job-results/?limit=1000", "/api/extras/job-logs/?limit=1000", "/api/extras/scheduled-jobs/",
  "/api/plugins/bgp/autonomous-systems/", "/api/plugins/bgp/peering-roles/", "/api/plugins/bgp/routing-instances/", "/api/plugins/bgp/peer-groups/",
  "/api/plugins/bgp/peer-group-templates/", "/api/plugins/bgp/peerings/", "/api/plugins/bgp/peer-endpoints/", "/api/plugins/bgp/address-families/",
  "/api/virtualization/interfaces/?limit=1000", "/api/ipam/vlans/?limit=1000",
];

async function answers(base: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of LISTS) {
    const res = await fetch(`${base}${path}`, { headers: auth });
    // The calendar's global ids name the host without the scheme.
    out[path] = `${res.status} ${(await res.text()).split(base).join("BASE").split(new URL(base).host).join("HOST")}`;
  }
  const attachments = JSON.parse(out["/api/extras/image-attachments/"].slice(4)).results as Array<{ image: string }>;
  for (const a of attachments) {
    const file = await fetch(a.image.replace("BASE", base));
    out[a.image] = `${file.status} ${Buffer.from(await file.arrayBuffer()).toString("base64")}`;
  }
  return out;
}

/** The answers that differ, each with where it first does: an assertion that says what is wrong. */
function differences(got: Record<string, string>, want: Record<string, string>): string[] {
  return Object.keys({ ...got, ...want }).filter((k) => got[k] !== want[k]).map((k) => {
    const [a, b] = [got[k] ?? "", want[k] ?? ""];
    let i = 0;
    while (a[i] === b[i]) i++;
    return `${k}: …${a.slice(Math.max(0, i - 80), i + 80)}… where it was …${b.slice(Math.max(0, i - 80), i + 80)}…`;
  });
}

/** A dump's lines but its header, and the header without its time and source. */
function dumpBody(file: string): { header: Record<string, unknown>; lines: string[] } {
  const [first, ...lines] = readFileSync(file, "utf8").trimEnd().split("\n");
  const { created: _c, database: _d, ...header } = JSON.parse(first);
  return { header, lines };
}

/** Each table of the database at `url` with its number of rows: what a refused load must leave as it was. */
async function rowCounts(url: string): Promise<Record<string, number>> {
  const db = knex({ client: "pg", connection: url });
  try {
    const tables = (await db.raw("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).rows as Array<{ tablename: string }>;
    if (!tables.length) return {};
    const counts = tables.map((t) => `SELECT '${t.tablename}' AS t, count(*)::int AS n FROM "${t.tablename}"`).join(" UNION ALL ");
    return Object.fromEntries(((await db.raw(counts)).rows as Array<{ t: string; n: number }>).map((r) => [r.t, r.n]));
  } finally {
    await db.destroy();
  }
}

/** The files below `dir`, none when it is absent. */
function filesIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: "utf8" }).sort() : [];
}

function png(): Buffer {
  return Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");
}

describe("dump and load: embedded → PostgreSQL → embedded", function () {
  // A dozen process starts, five of them opening an embedded database: minutes on a busy machine.
  this.timeout(1_200_000);
  const source = embedded("source");
  const back = embedded("back");
  let original: Record<string, string>;
  let appPassword: string;

  before(async function () {
    const admin = knex({ client: "pg", connection: adminUrl });
    // `make test` on a machine with only Node.js: without DATABASE_URL and no server at the
    // default address, there is no PostgreSQL to round-trip through, and the test says so.
    if (!process.env.DATABASE_URL && !(await admin.raw("SELECT 1").then(() => true, () => false))) {
      await admin.destroy();
      console.log(`    (skipped: no PostgreSQL at ${adminUrl}; set DATABASE_URL)`);
      this.skip();
    }
    cli = await builtCli();
    EVERY_APP.JOBS_ROOT = jobsFolders(cli);
    for (const place of [source, back, postgres]) Object.assign(place.env, EVERY_APP);
    try {
      for (const name of [pgName, cutName]) {
        await admin.raw(`DROP DATABASE IF EXISTS ${name}`);
        await admin.raw(`CREATE DATABASE ${name}`);
      }
    } finally {
      await admin.destroy();
    }
  });

  after(async function () {
    rmSync(work, { recursive: true, force: true });
    if (!cli) return;
    const admin = knex({ client: "pg", connection: adminUrl });
    try {
      for (const name of [pgName, cutName]) await admin.raw(`DROP DATABASE IF EXISTS ${name}`);
    } finally {
      await admin.destroy();
    }
  });

  it("dumps an embedded database with the demo data and objects of the models it lacks, media files included", async () => {
    // What `createsuperuser --token` and `create-app-password` would leave on a new DATA_DIR.
    appPassword = await migratedDataDir(source.env.DATA_DIR!, async (db) => {
      await ensureSuperuser(db, apis, "admin", "admin-pw", TOKEN);
      return /\(cli\): (.*)$/m.exec(await profileCommand(db, apis, "create-app-password", { username: "admin" }))![1].trim();
    });
    original = await serving(source, async (base) => {
      const site = (await send(base, "GET", "/api/dcim/sites/?limit=1")).results[0];
      await send(base, "POST", "/api/extras/webhooks/", { name: "dump hook", content_types: ["dcim.site"], type_create: true, type_update: true, payload_url: "http://127.0.0.1:9/hook" });
      await send(base, "POST", "/api/extras/config-contexts/", { name: "dump context", data: { ntp: ["10.0.0.1"] }, sites: [site.id] });
      await send(base, "PATCH", `/api/dcim/sites/${site.id}/`, { description: "changed before the dump" });
      const form = new FormData();
      for (const [k, v] of Object.entries({ content_type: "dcim.site", object_id: site.id, name: "plan" })) form.append(k, v);
      form.append("image", new Blob([new Uint8Array(png())]), "plan.png");
      const upload = await fetch(`${base}/api/extras/image-attachments/`, { method: "POST", body: form, headers: auth });
      expect(upload.status, await upload.clone().text()).to.equal(201);
      const basic = { Authorization: `Basic ${Buffer.from(`admin:${appPassword}`).toString("base64")}` };
      await send(base, "POST", "/wp-json/calendar/events/v1/events", { title: "Dumped event", start_date: "2031-05-01 10:00:00", end_date: "2031-05-01 11:00:00", categories: [] }, basic);
      await everyModel(base);
      return answers(base);
    });
    expect(Object.keys(original).filter((k) => k.includes("/media/"))).to.have.length(1);
    const dumped = await ok(source, "dump", join(work, "a.ndjson"));
    expect(dumped.err).to.match(/^dumped \d+ rows of \d+ tables and 1 media file\(s\) to /m);
    const { header, lines } = dumpBody(join(work, "a.ndjson"));
    expect(header).to.include({ format: "armature-dump", version: 1 });
    // Every table the migrations made is in it, the runtime's own included.
    const tables = lines.filter((l) => l.startsWith('{"table":')).map((l) => JSON.parse(l));
    const names = tables.map((t) => t.table);
    for (const t of ["users_user", "users_token", "auth_applicationpassword", "armature_tasks", "armature_task_attempts", "armature_demo", "extras_objectchange", "events_event", "extras_imageattachment"]) {
      expect(names).to.include(t);
    }
    const rows = Object.fromEntries(tables.map((t) => [t.table, t.rows]));
    // Every model's table and every link table holds rows: the round trip carries each kind.
    expect(names.filter((t) => rows[t] === 0)).to.deep.equal(STATE_TABLES);
    expect(rows.armature_tasks, "the webhook's deliveries").to.be.greaterThan(0);
    expect(rows.extras_configcontext_sites).to.equal(1);
    expect(JSON.parse(lines.at(-1)!)).to.include({ end: true, files: 1 });
  });

  it("loads it into a new PostgreSQL database, which answers the same and dumps the same", async () => {
    const loaded = await ok(postgres, "load", join(work, "a.ndjson"));
    expect(loaded.out).to.match(/^loaded \d+ rows of \d+ tables and 1 media file\(s\) into PostgreSQL/m).and.include("rows written directly");
    // Dumped before a server starts on it: a start brings the job records in step, which dates them anew.
    await ok(postgres, "dump", join(work, "b.ndjson.gz"));
    const after = await serving(postgres, answers);
    expect(differences(after, original)).to.deep.equal([]);
  });

  it("loads that (gzip) into a new embedded database: the same answers, the first dump line for line, serial ids going on after the loaded ones", async () => {
    // A new DATA_DIR as its first open leaves it, which load then migrates itself.
    await newDataDir(back.env.DATA_DIR!);
    await ok(back, "load", join(work, "b.ndjson.gz"));
    await ok(back, "dump", join(work, "c.ndjson"));
    const first = dumpBody(join(work, "a.ndjson"));
    const last = dumpBody(join(work, "c.ndjson"));
    expect(last.header).to.deep.equal(first.header);
    const changed = last.lines.map((l, n) => [l, first.lines[n]]).filter(([a, b]) => a !== b);
    expect(changed.slice(0, 3).flat().join("\n"), "lines that differ (now, then)").to.equal("");
    expect(last.lines.length).to.equal(first.lines.length);
    await serving(back, async (base) => {
      expect(differences(await answers(base), original)).to.deep.equal([]);
      const events = await send(base, "GET", "/wp-json/calendar/events/v1/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01");
      const highest = Math.max(...events.events.map((e: { id: number }) => e.id));
      const basic = { Authorization: `Basic ${Buffer.from(`admin:${appPassword}`).toString("base64")}` };
      const made = await send(base, "POST", "/wp-json/calendar/events/v1/events", { title: "After the load", start_date: "2031-06-01 10:00:00", end_date: "2031-06-01 11:00:00" }, basic);
      expect(made.id).to.be.greaterThan(highest);
    });
  });

  it("refuses a database holding rows and a dump cut short, with exit 1, changing nothing", async () => {
    const lines = readFileSync(join(work, "a.ndjson"), "utf8").split("\n");
    writeFileSync(join(work, "cut.ndjson"), lines.slice(0, Math.floor(lines.length / 2)).join("\n"));
    const fresh = postgresPlace(urlOf(cutName), "cut-media");
    const held = await rowCounts(pgUrl);
    const media = filesIn(postgres.media);
    expect(media.filter((f) => f.endsWith(".png")), "the loaded image").to.have.length(1);
    // Each refusal reads a database of its own or none, so they run together.
    const [again, cut, notDump] = await Promise.all([
      armature(postgres, "load", join(work, "a.ndjson")),
      armature(fresh, "load", join(work, "cut.ndjson")),
      armature(postgres, "load", join(work, "..", "nothing-here.ndjson")),
    ]);
    expect(again.code).to.equal(1);
    expect(again.err).to.include("the database is not empty");
    expect(cut.code).to.equal(1);
    expect(cut.err).to.include("cut short");
    expect(notDump.code).to.equal(1);
    expect(notDump.err).to.include("no such file");

    expect(await rowCounts(pgUrl)).to.deep.equal(held);
    expect(filesIn(postgres.media)).to.deep.equal(media);
    // Not even the schema: it was made in the load's transaction.
    expect(await rowCounts(urlOf(cutName))).to.deep.equal({});
    expect(filesIn(fresh.media)).to.deep.equal([]);
  });

  it("--exclude changes leaves the change log out", async () => {
    const ran = await ok(postgres, "dump", "--exclude", "changes");
    const [header, ...rest] = ran.out.trimEnd().split("\n");
    expect(JSON.parse(header).excluded).to.deep.equal(["changes"]);
    expect(rest.some((l) => l.startsWith('{"table":"extras_objectchange"'))).to.equal(false);
    expect(rest.some((l) => l.startsWith('{"table":"dcim_site"'))).to.equal(true);
  });
});
