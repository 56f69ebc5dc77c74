// The runtime side of the command line: migrate, serve (in one process or several workers on
// one port), create the first administrator, load demo data, `run`, which does all of them in
// order for `make run`, and `worker`, a queue worker without the HTTP server. Takes options
// already parsed (bin/command-line.ts); what it refuses it refuses before opening the database.
import cluster from "node:cluster";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import type { Knex } from "knex";
import { configFromEnv, type Config } from "./config.js";
import { openDatabase, type Database } from "./db/connect.js";
import { migrate } from "./db/migrate.js";
import { advisoryLock } from "./db/locks.js";
import { migrationSets } from "./db/runtime-migrations.js";
import { createApp, identitiesFor } from "./server.js";
import { createServer, listenOn, RELEASE_MS, shutDownOnSignals } from "./http/lifecycle.js";
import { superviseWorkers } from "./http/cluster.js";
import { answerClientErrors } from "./http/client-errors.js";
import { Tokens } from "./auth/tokens.js";
import { loadFixtures, type Fixture } from "./fixtures.js";
import type { ApiDescriptor } from "./descriptor.js";
import { profiles } from "./profiles/index.js";
import { Worker } from "./queue/worker.js";
import { periodicTasks, syncJobs, taskHandlers } from "./features/index.js";
import { Engine, enginesOn } from "./engine.js";
import { Operations } from "./operations/index.js";
import { dumpCommand, loadCommand } from "./dump/index.js";
import { healthCheck } from "./operator/health-check.js";
import { removeStaleContentTypes, removeStaleSchedules } from "./operator/upgrade.js";
import { shell } from "./operator/shell.js";
import type { Excludable } from "./dump/format.js";
import { aggregateForWorkers, metricsServer } from "./metrics/index.js";

export interface CliOptions {
  port?: number;
  /** serve: processes serving the port; unset: the cores on PostgreSQL, one on the embedded database. */
  workers?: number;
  /** serve: false leaves the schema to `armature migrate` (readiness answers 503 until it ran). */
  migrate?: boolean;
  /** Name every migration applied, not just how many. */
  verbose?: boolean;
  username?: string;
  password?: string;
  token?: string;
  name?: string;
  /** dump: where to write (stdout when absent); load: the dump to read. */
  file?: string;
  /** dump, load: what to leave out. */
  exclude?: Excludable[];
}

/** A command line refused before anything ran; the caller exits 2, as for a bad option. */
export class UsageError extends Error {}

/** What a migration run applied (`<stream>/<name>`s): how many, per stream (an API's, an app's), and by name only when asked. */
export function migratedLine(applied: string[], verbose = false): string {
  const perApi = new Map<string, number>();
  for (const name of applied) {
    const stream = name.slice(0, name.lastIndexOf("/"));
    perApi.set(stream, (perApi.get(stream) ?? 0) + 1);
  }
  const counts = [...perApi].map(([api, n]) => `${api} ${n}`).join(", ");
  return `migrated: ${applied.length} migration${applied.length === 1 ? "" : "s"} (${counts})${verbose ? `: ${applied.join(", ")}` : ""}`;
}

export async function migrateAll(db: Knex, apis: ApiDescriptor[]): Promise<string[]> {
  return migrate(db, migrationSets(apis));
}

/**
 * Creates a superuser and a token for it, or gives a write-enabled, unexpired token it already
 * has (`issued` says whether the token is new). Instances starting together take turns (an
 * advisory lock on the username), so one creates the user and the others find it. One
 * system operation: its writes are recorded as the `createsuperuser` command's.
 */
export async function ensureSuperuser(db: Knex, apis: ApiDescriptor[], username: string, password: string, key?: string): Promise<{ key: string; created: boolean; issued: boolean }> {
  const owner = apis.find((a) => a.auth);
  if (!owner?.auth?.tokens) throw new Error("no API declares auth users and tokens");
  const { index, store, operations } = new Engine(owner, db);
  const users = index.model(owner.auth.users);
  const tokens = new Tokens(index, store, index.model(owner.auth.tokens));
  const version = owner.versions.supported.at(-1)!;
  return operations.run(Operations.system("createsuperuser"), async (op) => {
    const { trx } = op;
    await advisoryLock(trx, users.table, `username:${username}`);
    const existing = await trx(users.table).select("id").where(index.column(users, "username"), username).first();
    const userId = existing?.id ?? await store.create(op, users, { username, password, is_superuser: true, is_staff: true }, { version, partial: false });
    // Re-running with the same --token (a deploy script at every start) finds the token it made.
    const reusable = key ? ((await tokens.holds(trx, userId, key)) ? key : undefined) : await tokens.writableKey(trx, userId);
    const issued = reusable ?? await tokens.issue(op, userId, { ...(key ? { key } : {}), description: "created by createsuperuser" });
    return { key: issued, created: !existing, issued: !reusable };
  });
}

/**
 * Loads each API's demo fixtures once; a marker table (a runtime migration's) remembers what was loaded. One
 * operation under an advisory lock: instances starting together load the data exactly once,
 * and a failed load leaves neither records nor marker behind. A system operation: every
 * record is in the change log as the `demo-data` command's, under one request id.
 */
export function loadDemoOnce(db: Knex, apis: ApiDescriptor[], demo: Record<string, Fixture[]>, userId?: string): Promise<string[]> {
  return new Operations(db).run(Operations.system("demo-data"), async (op) => {
    const { trx } = op;
    await advisoryLock(trx, "armature_demo", "load");
    const loaded: string[] = [];
    for (const api of apis) {
      const fixtures = demo[api.name];
      if (!fixtures || (await trx("armature_demo").where("api", api.name).first())) continue;
      await loadFixtures(op, api, fixtures, userId);
      await trx("armature_demo").insert({ api: api.name });
      loaded.push(`${api.name} (${fixtures.length} records)`);
    }
    return loaded;
  });
}

/**
 * Runs a command a profile contributes over that profile's APIs, as a system operation of the
 * command's name: whatever it writes goes through the write features. Gives the line to print.
 */
export async function profileCommand(db: Knex, apis: ApiDescriptor[], command: string, opts: CliOptions): Promise<string> {
  const owner = Object.entries(profiles).find(([, p]) => p.commands?.[command]);
  if (!owner) throw new UsageError(`unknown command ${command}`);
  const [name, profile] = owner;
  return new Operations(db).run(Operations.system(command),
    (op) => profile.commands![command]({ op, apis: apis.filter((a) => a.profile === name), identities: identitiesFor(apis), opts }));
}

/** The HTTP server of the APIs, its connection timeouts as configured; not yet listening. */
export function httpServer(apis: ApiDescriptor[], db: Database, config: Config): Server {
  const site = createApp(apis, db.knex, config);
  const server = createServer(site, site.classes);
  answerClientErrors(server, config);
  server.keepAliveTimeout = config.keepAliveTimeout * 1000;
  // Kept above the keep-alive timeout, as load balancers' guides ask of Node servers: a request
  // arriving as an idle connection's time runs out must not meet the headers timer first.
  server.headersTimeout = Math.max(config.headersTimeout * 1000, server.keepAliveTimeout + 1000);
  // A request still arriving after this is cut off: a few slow clients cannot hold the server.
  server.requestTimeout = Math.max(config.requestTimeout * 1000, server.headersTimeout);
  return server;
}

/** A queue worker over `db` with the process's handlers and settings, started. */
export function startWorker(db: Knex, config: Config, apis: ApiDescriptor[]): Worker {
  const setting = { config, apis, engineOf: enginesOn(db) };
  return new Worker(db, taskHandlers(setting), config.queue, undefined, periodicTasks(setting)).start();
}

/** On the first SIGTERM or SIGINT, runs `release` and exits (1 if it failed). */
function stopOnSignals(release: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the queue worker`);
    release().then(() => process.exit(0), (err: unknown) => {
      console.error(`stopping failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/** The job records brought in step with the jobs folders, with what changed said. */
async function syncJobsAndSay(db: Knex, apis: ApiDescriptor[], config: Config): Promise<void> {
  for (const line of await syncJobs(db, apis, config.jobsRoots)) console.log(line);
}

/** Where the data is, as the start-up lines say it. */
function whereData(config: Config): string {
  return config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.dataDir}`;
}

/** What needs the API descriptors or the environment to judge, judged before the database is opened. */
function checkArguments(command: string, opts: CliOptions, apis: ApiDescriptor[], config: Config): void {
  if (command === "serve" && (opts.workers ?? 1) > 1 && !config.databaseUrl) {
    throw new UsageError(`--workers ${opts.workers}: the embedded database belongs to one process; set DATABASE_URL (PostgreSQL) to serve from several`);
  }
  if (command === "createsuperuser" && opts.token !== undefined) {
    const owner = apis.find((a) => a.auth?.tokens);
    const key = owner?.models.find((m) => m.key === owner.auth!.tokens)?.fields.find((f) => f.name === "key");
    const pattern = key?.kind === "scalar" ? key.pattern : undefined;
    if (pattern && !new RegExp(pattern.regex, "u").test(opts.token)) throw new UsageError(`--token: ${pattern.message}`);
  }
}

/** `apis` and `demo` come from the caller (bin/), so the runtime never imports generated code. */
export async function runCommand(command: string, opts: CliOptions, apis: ApiDescriptor[], demo: Record<string, Fixture[]>, demoLogins: string[] = []): Promise<void> {
  const config = configFromEnv();
  if (opts.port !== undefined) config.port = opts.port;
  checkArguments(command, opts, apis, config);
  if (command === "serve") return serve(apis, config, opts);
  // Neither migrates first: a dump reads the schema as it is, a load migrates to the dump's.
  if (command === "dump") return void console.error(await dumpCommand(apis, config, opts.file, opts.exclude ?? []));
  if (command === "load") return void console.log(await loadCommand(apis, config, opts.file!, opts.exclude ?? []));
  if (command === "health_check") {
    // Asks, never mends: no migration runs first.
    const { healthy, lines } = await healthCheck(apis, config);
    for (const line of lines) console.log(line);
    if (!healthy) process.exitCode = 1;
    return;
  }
  const db = await openDatabase(config);
  const applied = await migrateAll(db.knex, apis);
  if (applied.length) console.log(migratedLine(applied, opts.verbose));
  await syncJobsAndSay(db.knex, apis, config);
  switch (command) {
    case "migrate":
      console.log(applied.length ? `database up to date (${whereData(config)})` : `nothing to migrate (${whereData(config)})`);
      return db.close();
    case "createsuperuser": {
      const { key } = await ensureSuperuser(db.knex, apis, opts.username!, opts.password!, opts.token);
      console.log(`superuser ${opts.username}; API token: ${key}`);
      return db.close();
    }
    case "demo-data": {
      const loaded = await loadDemoOnce(db.knex, apis, demo);
      console.log(loaded.length ? `loaded demo data: ${loaded.join(", ")}` : "demo data already loaded");
      return db.close();
    }
    case "run":
      return run(apis, db, config, demo, demoLogins);
    case "upgrade":
      // The migrations and the job records ran above, as for every command.
      console.log(applied.length ? `upgraded the schema (${whereData(config)})` : `schema already up to date (${whereData(config)})`);
      console.log(await removeStaleContentTypes(db.knex, apis));
      console.log(await removeStaleSchedules(db.knex, apis));
      console.log(await profileCommand(db.knex, apis, "clearsessions", opts));
      return db.close();
    case "shell":
      return shell(db, apis);
    case "worker": {
      const worker = startWorker(db.knex, config, apis);
      console.log(`queue worker ${worker.id} is running (${whereData(config)}), ${config.queue.concurrency} task(s) at a time`);
      const metrics = config.metrics.enabled ? await listenOn(metricsServer({ apis, db: db.knex, config, identities: identitiesFor(apis) }), config.host, config.port) : undefined;
      if (metrics) console.log(`  metrics: http://${config.host}:${(metrics.address() as AddressInfo).port}/metrics`);
      stopOnSignals(async () => {
        await new Promise((closed) => (metrics ? metrics.close(closed) : closed(undefined)));
        await worker.stop();
        await db.close();
      });
      return;
    }
    default:
      console.log(await profileCommand(db.knex, apis, command, opts));
      return db.close();
  }
}

/**
 * `serve`: migrates (unless told not to), then serves here, or from `workers` processes on one
 * port. A worker of the cluster runs this too: it serves and leaves the rest to the primary.
 */
async function serve(apis: ApiDescriptor[], config: Config, opts: CliOptions): Promise<void> {
  config.logRequests ??= true;
  if (cluster.isWorker) {
    await serveHere(apis, await openDatabase(config), config);
    return;
  }
  const workers = opts.workers ?? (config.databaseUrl ? availableParallelism() : 1);
  const db = await openDatabase(config);
  if (opts.migrate !== false) {
    const applied = await migrateAll(db.knex, apis);
    if (applied.length) console.log(migratedLine(applied, opts.verbose));
    await syncJobsAndSay(db.knex, apis, config);
  }
  if (workers === 1) {
    const server = await serveHere(apis, db, config);
    announce(apis, config, (server.address() as AddressInfo).port, "");
    return;
  }
  await db.close();
  if (config.metrics.enabled) aggregateForWorkers();
  superviseWorkers({
    workers,
    // A worker's own bound (lifecycle.ts) and as much again for its exit to arrive.
    stopWithinMs: config.shutdownTimeout * 1000 + 2 * RELEASE_MS,
    serving: (port) => announce(apis, config, port, ` from ${workers} worker processes`),
  });
}

/** Serves the APIs in this process with its queue worker, until SIGTERM or SIGINT drains and stops it. */
async function serveHere(apis: ApiDescriptor[], db: Database, config: Config): Promise<Server> {
  const server = httpServer(apis, db, config);
  let worker: Worker | undefined;
  // Before listening: a signal that comes as soon as this process serves (a cluster primary
  // announces it then) must find the handler, not the default that kills at once.
  shutDownOnSignals(server, {
    timeoutSeconds: config.shutdownTimeout,
    // Once the requests have drained; tasks the worker had running are queued again at once.
    release: async () => {
      await worker?.stop();
      await db.close();
    },
  });
  await listenOn(server, config.host, config.port);
  worker = config.queueWorker ? startWorker(db.knex, config, apis) : undefined;
  return server;
}

/** The start-up lines: where each API is served, and the queue worker. */
function announce(apis: ApiDescriptor[], config: Config, port: number, how: string): void {
  const base = config.publicUrl ?? `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port}`;
  console.log(`Armature is serving (${whereData(config)})${how}:`);
  for (const api of apis) for (const line of profiles[api.profile].announce(api, config, base)) console.log(line);
  console.log(config.queueWorker ? `  queue worker: ${config.queue.concurrency} task(s) at a time${how ? " in each" : ""}` : "  queue worker: off (QUEUE_WORKER=0)");
}

/**
 * `run`, the development start: an administrator and the demo data once, then serving. The
 * token and the logins are printed when they were made, at the first start; later starts say
 * where to find them rather than print a secret into every terminal and log.
 */
async function run(apis: ApiDescriptor[], db: Database, config: Config, demo: Record<string, Fixture[]>, demoLogins: string[]): Promise<void> {
  config.logRequests ??= false;
  // The demo shows what an operator turns on: clients see the RateLimit-* headers from the start.
  config.rateLimits.enabled ??= true;
  const username = process.env.ADMIN_USERNAME ?? "admin";
  const password = process.env.ADMIN_PASSWORD ?? "admin";
  const admin = await ensureSuperuser(db.knex, apis, username, password);
  const user = await identitiesFor(apis)!.byPassword(db.knex, username, password);
  const loaded = await loadDemoOnce(db.knex, apis, demo, user?.userId);
  if (loaded.length) console.log(`loaded demo data: ${loaded.join(", ")}`);
  const server = await serveHere(apis, db, config);
  announce(apis, config, (server.address() as AddressInfo).port, "");
  const limits = config.rateLimits;
  if (limits.enabled) console.log(`  rate limits: ${limits.budget} units per user or address, ${limits.refill} a second back (RATE_LIMIT_ENABLED=0 turns them off)`);
  if (admin.issued) {
    console.log(`  admin login: ${username} / ${password}`);
    console.log(`  API token: ${admin.key}   (Authorization: Token ${admin.key})`);
  } else {
    console.log(`  admin login: ${username}; its API token was printed when it was made, and \`armature createsuperuser --username ${username} --password …\` prints it again`);
  }
  if (loaded.length) for (const login of demoLogins) console.log(`  demo login: ${login}`);
}
