// Process configuration, read once from the environment. Gives a plain object; the rest
// of the runtime takes it as an argument and never reads process.env itself.
import { resolve } from "node:path";

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
  /** Mount point of WordPress-style APIs (`/wp-json`). */
  wpApiRoot: string;
  /** Log each request to stdout. */
  logRequests: boolean;
  /**
   * Failed password attempts (login form, HTTP Basic) allowed per username and per client
   * address within `authFailureWindow` seconds before further attempts are answered 429;
   * counted in the database, so every instance shares them. 0 in either turns it off.
   */
  authFailureLimit: number;
  authFailureWindow: number;
  /** Origins whose browser scripts may call the APIs (CORS); empty: none, `*`: any. */
  corsOrigins: string[];
  /** Seconds a stopping server waits for requests in flight before cutting them off. */
  shutdownTimeout: number;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR === "memory://" ? "memory://" : resolve(env.DATA_DIR || ".data/pglite"),
    poolSize: wholeNumber(env, "DATABASE_POOL_SIZE", 10) || 10,
    host: env.HOST || "127.0.0.1",
    port: Number(env.PORT || 8080),
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, "") || undefined,
    bodyLimit: env.BODY_LIMIT || "1mb",
    wpApiRoot: (env.WP_API_ROOT || "/wp-json").replace(/\/$/, ""),
    logRequests: env.LOG_REQUESTS === "1",
    authFailureLimit: wholeNumber(env, "AUTH_FAILURE_LIMIT", 10),
    authFailureWindow: wholeNumber(env, "AUTH_FAILURE_WINDOW", 300),
    corsOrigins: (env.CORS_ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim().replace(/\/$/, "")).filter(Boolean),
    shutdownTimeout: wholeNumber(env, "SHUTDOWN_TIMEOUT", 30),
  };
}

/** A security setting must not silently fall back to its default when it is mistyped. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number of 0 or more, not "${raw}"`);
  return Number(raw);
}
