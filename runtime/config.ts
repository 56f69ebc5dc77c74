// Process configuration, read once from the environment. Gives a plain object; the rest
// of the runtime takes it as an argument and never reads process.env itself.
import { resolve } from "node:path";

export interface Config {
  /** PostgreSQL connection string; unset means the embedded PGlite database. */
  databaseUrl?: string;
  /** Directory of the embedded database (`./.data/pglite`); `memory://` keeps it in memory. */
  dataDir: string;
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
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR === "memory://" ? "memory://" : resolve(env.DATA_DIR || ".data/pglite"),
    host: env.HOST || "127.0.0.1",
    port: Number(env.PORT || 8080),
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, "") || undefined,
    bodyLimit: env.BODY_LIMIT || "1mb",
    wpApiRoot: (env.WP_API_ROOT || "/wp-json").replace(/\/$/, ""),
    logRequests: env.LOG_REQUESTS === "1",
  };
}
