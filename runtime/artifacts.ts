// Reads what the generator emitted beside an API's index: the OpenAPI document of each
// version (`openapi/<version>.json`), the migrations (`migrations/*.sql`), in order, and the
// GraphQL schema (`schema.graphql`) when there is one.
// Synchronous on purpose: it runs at import time, and for each OpenAPI document once, on its
// first use, never again per request.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

export function loadArtifacts(dirUrl: URL): { openapi: Record<string, unknown>; migrations: Array<{ name: string; sql: string }>; graphql?: string } {
  const dir = fileURLToPath(dirUrl);
  const openapi: Record<string, unknown> = {};
  const docs = join(dir, "openapi");
  if (existsSync(docs)) {
    // Parsed when first asked for: each is megabytes of objects (some 25 MB of heap for four
    // versions) that a process may never need, the documents' pages and writes of that
    // version being their only readers.
    for (const f of readdirSync(docs).filter((n) => n.endsWith(".json")).sort()) {
      let doc: unknown;
      Object.defineProperty(openapi, f.replace(/\.json$/, ""), {
        enumerable: true,
        get: () => (doc ??= JSON.parse(readFileSync(join(docs, f), "utf8"))),
      });
    }
  }
  const migrationsDir = join(dir, "migrations");
  const migrations = existsSync(migrationsDir)
    ? readdirSync(migrationsDir).filter((n) => n.endsWith(".sql")).sort().map((name) => ({ name, sql: readFileSync(join(migrationsDir, name), "utf8") }))
    : [];
  const sdl = join(dir, "schema.graphql");
  return { openapi, migrations, ...(existsSync(sdl) ? { graphql: readFileSync(sdl, "utf8") } : {}) };
}
