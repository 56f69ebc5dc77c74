// Reads what the generator emitted beside an API's index: the OpenAPI document of each
// version (`openapi/<version>.json`), the migrations (`migrations/*.sql`), in order, and the
// GraphQL schema (`schema.graphql`) when there is one.
// Synchronous on purpose: it runs once at import time, never per request.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

export function loadArtifacts(dirUrl: URL): { openapi: Record<string, unknown>; migrations: Array<{ name: string; sql: string }>; graphql?: string } {
  const dir = fileURLToPath(dirUrl);
  const openapi: Record<string, unknown> = {};
  const docs = join(dir, "openapi");
  if (existsSync(docs)) {
    for (const f of readdirSync(docs).filter((n) => n.endsWith(".json")).sort()) {
      openapi[f.replace(/\.json$/, "")] = JSON.parse(readFileSync(join(docs, f), "utf8"));
    }
  }
  const migrationsDir = join(dir, "migrations");
  const migrations = existsSync(migrationsDir)
    ? readdirSync(migrationsDir).filter((n) => n.endsWith(".sql")).sort().map((name) => ({ name, sql: readFileSync(join(migrationsDir, name), "utf8") }))
    : [];
  const sdl = join(dir, "schema.graphql");
  return { openapi, migrations, ...(existsSync(sdl) ? { graphql: readFileSync(sdl, "utf8") } : {}) };
}
