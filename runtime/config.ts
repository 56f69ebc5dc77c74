// Process configuration, read once from the environment. Gives a plain object; the rest
// of the runtime takes it as an argument and never reads process.env itself.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_WORKER_SETTINGS, type WorkerSettings } from "./queue/worker.js";
import { LOG_LEVELS } from "./http/request-log.js";
import { rateLimitsFromEnv, type RateLimitSettings } from "./http/rate-limits.js";

export interface Config {
  /** PostgreSQL connection string; unset means the embedded PGlite database. */
  databaseUrl?: string;
  /** Directory of the embedded database (`./.data/pglite`); `memory://` keeps it in memory. */
  dataDir: string;
  /** Connections to PostgreSQL this process keeps at most (the embedded engine has one). */
  poolSize: number;
  host: string;
  port: number;
  /** Absolute base URL clients use (`http://example.org`); derived from each request when unset. */
  publicUrl?: string;
  /** Largest accepted request body. */
  bodyLimit: string;
  /** The folder uploaded files are kept in (MEDIA_ROOT; default `media` beside the embedded database's folder). */
  mediaRoot: string;
  /** The largest uploaded file taken, in bytes (UPLOAD_LIMIT); a multipart body may be this much larger than `bodyLimit`. */
  uploadLimit: number;
  /** Mount point of WordPress-style APIs (`/wp-json`). */
  wpApiRoot: string;
  /**
   * Log each request to stdout as a JSON line (runtime/http/request-log.ts); LOG_REQUESTS=1 or
   * 0, unset: the command decides (`serve` logs, `run`, the development start, does not).
   */
  logRequests?: boolean;
  /** The lowest level logged (pino's: fatal, error, warn, info, debug, trace, or silent). */
  logLevel: string;
  /**
   * Failed password attempts (login form, HTTP Basic) allowed per username and per client
   * address within `authFailureWindow` seconds before further attempts are answered 429;
   * counted in the database, so every instance shares them. 0 in either turns it off.
   */
  authFailureLimit: number;
  authFailureWindow: number;
  /** Rate limits by cost per requester, RATE_LIMIT_* (runtime/http/rate-limits.ts). */
  rateLimits: RateLimitSettings;
  /** Origins whose browser scripts may call the APIs (CORS); empty: none, `*`: any. */
  corsOrigins: string[];
  /** Seconds a stopping server waits for requests in flight before cutting them off. */
  shutdownTimeout: number;
  /**
   * Seconds an idle keep-alive connection stays open (KEEP_ALIVE_TIMEOUT, Node's 5 by default):
   * behind a load balancer it must outlast the balancer's own idle timeout, or the balancer
   * sends requests on connections the server is closing.
   */
  keepAliveTimeout: number;
  /** Seconds a request waits for a database connection (DATABASE_POOL_TIMEOUT) before it is answered 503. */
  poolTimeout: number;
  /** Seconds a client may take to send a request's headers (HEADERS_TIMEOUT), and the whole request (REQUEST_TIMEOUT): slow clients cannot hold connections. */
  headersTimeout: number;
  requestTimeout: number;
  /** Whether `serve` and `run` run a queue worker in the process (QUEUE_WORKER=0: this instance only enqueues). */
  queueWorker: boolean;
  /** The queue worker's settings (runtime/queue/worker.ts), from QUEUE_* in seconds and days. */
  queue: WorkerSettings;
  /** Seconds a webhook delivery may take, connecting and answering, before the attempt fails. */
  webhookTimeout: number;
  /** The folders of job modules (JOBS_ROOT, several separated by ":", as PATH; default the shipped `jobs/`). */
  jobsRoots: string[];
  /** Where Git repositories are cloned and their commits checked out (GIT_ROOT, default `./.data/git`). */
  gitRoot: string;
  /** `/metrics` (runtime/metrics/): served at all (METRICS_ENABLED, off), and only to a token's or a login's holder (METRICS_AUTHENTICATED, on). */
  metrics: { enabled: boolean; authenticated: boolean };
}

/** The jobs folder beside the runtime's: `jobs/` of the checkout, or `dist/jobs/` of a build. */
const SHIPPED_JOBS = resolve(dirname(fileURLToPath(import.meta.url)), "..", "jobs");

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR === "memory://" ? "memory://" : resolve(env.DATA_DIR || ".data/pglite"),
    poolSize: wholeNumber(env, "DATABASE_POOL_SIZE", 10) || 10,
    host: env.HOST || "127.0.0.1",
    port: Number(env.PORT || 8080),
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, "") || undefined,
    bodyLimit: env.BODY_LIMIT || "1mb",
    mediaRoot: resolve(env.MEDIA_ROOT || join(env.DATA_DIR && env.DATA_DIR !== "memory://" ? dirname(resolve(env.DATA_DIR)) : ".data", "media")),
    uploadLimit: wholeNumber(env, "UPLOAD_LIMIT", 5 * 1024 * 1024),
    wpApiRoot: (env.WP_API_ROOT || "/wp-json").replace(/\/$/, ""),
    logRequests: flag(env, "LOG_REQUESTS"),
    logLevel: oneOf(env, "LOG_LEVEL", LOG_LEVELS, "info")!,
    authFailureLimit: wholeNumber(env, "AUTH_FAILURE_LIMIT", 10),
    authFailureWindow: wholeNumber(env, "AUTH_FAILURE_WINDOW", 300),
    rateLimits: rateLimitsFromEnv((name, fallback) => wholeNumber(env, name, fallback), (name) => flag(env, name)),
    corsOrigins: (env.CORS_ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim().replace(/\/$/, "")).filter(Boolean),
    shutdownTimeout: wholeNumber(env, "SHUTDOWN_TIMEOUT", 30),
    keepAliveTimeout: wholeNumber(env, "KEEP_ALIVE_TIMEOUT", 5) || 5,
    poolTimeout: wholeNumber(env, "DATABASE_POOL_TIMEOUT", 5) || 5,
    headersTimeout: wholeNumber(env, "HEADERS_TIMEOUT", 10) || 10,
    requestTimeout: wholeNumber(env, "REQUEST_TIMEOUT", 60) || 60,
    queueWorker: env.QUEUE_WORKER?.trim() !== "0",
    queue: {
      concurrency: wholeNumber(env, "QUEUE_CONCURRENCY", DEFAULT_WORKER_SETTINGS.concurrency) || 1,
      pollMs: seconds(env, "QUEUE_POLL_INTERVAL", DEFAULT_WORKER_SETTINGS.pollMs) || 1000,
      leaseMs: seconds(env, "QUEUE_LEASE", DEFAULT_WORKER_SETTINGS.leaseMs) || 1000,
      maxAttempts: wholeNumber(env, "QUEUE_MAX_ATTEMPTS", DEFAULT_WORKER_SETTINGS.maxAttempts) || 1,
      retryBaseMs: seconds(env, "QUEUE_RETRY_DELAY", DEFAULT_WORKER_SETTINGS.retryBaseMs),
      retryMaxMs: seconds(env, "QUEUE_RETRY_MAX_DELAY", DEFAULT_WORKER_SETTINGS.retryMaxMs),
      retentionDays: wholeNumber(env, "QUEUE_RETENTION", DEFAULT_WORKER_SETTINGS.retentionDays),
    },
    webhookTimeout: wholeNumber(env, "WEBHOOK_TIMEOUT", 10) || 10,
    jobsRoots: env.JOBS_ROOT ? env.JOBS_ROOT.split(":").filter(Boolean).map((p) => resolve(p)) : [SHIPPED_JOBS],
    gitRoot: resolve(env.GIT_ROOT || ".data/git"),
    // Nautobot's setting is METRICS_AUTHENTICATED; its guide spells it METRICS_AUTHENTICATION, so both are read.
    metrics: { enabled: flag(env, "METRICS_ENABLED") ?? false, authenticated: flag(env, "METRICS_AUTHENTICATED") ?? flag(env, "METRICS_AUTHENTICATION") ?? true },
  };
}

/** A setting given in whole seconds, as milliseconds. */
function seconds(env: NodeJS.ProcessEnv, name: string, fallbackMs: number): number {
  return wholeNumber(env, name, fallbackMs / 1000) * 1000;
}

/** A security setting must not silently fall back to its default when it is mistyped. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number of 0 or more, not "${raw}"`);
  return Number(raw);
}

/** A switch set to 1 or 0; undefined when unset. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = oneOf(env, name, ["0", "1"], undefined);
  return raw === undefined ? undefined : raw === "1";
}

function oneOf(env: NodeJS.ProcessEnv, name: string, allowed: string[], fallback: string | undefined): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!allowed.includes(raw)) throw new Error(`${name} must be one of ${allowed.join(", ")}, not "${raw}"`);
  return raw;
}
