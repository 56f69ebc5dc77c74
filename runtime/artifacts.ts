// Reads what the generator emitted beside an API's index: where the OpenAPI document of each
// version is (`openapi/<version>.json`), the migrations (`migrations/*.sql`), in order, and
// where the GraphQL schema (`schema.graphql`) is when there is one; and each app's migrations
// (`apps/<name>/migrations/*.sql`).
// Synchronous on purpose: it runs at import time. A document or the schema stays in its file
// until something asks for it, and whoever asks keeps only what it derives from it.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { ApiDescriptor } from "./descriptor.js";

type Artifacts = Pick<ApiDescriptor, "openapiFiles" | "openapi" | "migrations" | "appMigrations" | "graphqlFile">;

/** The `.sql` files of `dir`, in name order. */
function migrationsIn(dir: string): Array<{ name: string; sql: string }> {
  return existsSync(dir)
    ? readdirSync(dir).filter((n) => n.endsWith(".sql")).sort().map((name) => ({ name, sql: readFileSync(join(dir, name), "utf8") }))
    : [];
}

export function loadArtifacts(dirUrl: URL): Artifacts {
  const dir = fileURLToPath(dirUrl);
  const docs = join(dir, "openapi");
  const openapiFiles: Record<string, string> = Object.fromEntries(existsSync(docs)
    ? readdirSync(docs).filter((n) => n.endsWith(".json")).sort().map((f) => [f.replace(/\.json$/, ""), join(docs, f)])
    : []);
  const openapi: Record<string, unknown> = {};
  for (const [version, file] of Object.entries(openapiFiles)) {
    // Parsed afresh at each read and never kept here: several megabytes of objects each, of
    // which a serving process needs a rendering or a few compiled schemas at most.
    Object.defineProperty(openapi, version, { enumerable: true, get: () => parseDocument(file) });
  }
  const apps = join(dir, "apps");
  const appMigrations = (existsSync(apps) ? readdirSync(apps).sort() : [])
    .map((app) => ({ app, migrations: migrationsIn(join(apps, app, "migrations")) }))
    .filter((a) => a.migrations.length);
  const sdl = join(dir, "schema.graphql");
  return { openapiFiles, openapi, migrations: migrationsIn(join(dir, "migrations")), appMigrations, ...(existsSync(sdl) ? { graphqlFile: sdl } : {}) };
}

const parseDocument = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, "utf8"));

/**
 * The OpenAPI document of `version`, parsed afresh from its file: what a caller renders once and
 * keeps only the rendering of, letting the megabytes of objects go.
 */
export function openApiDocument(api: ApiDescriptor, version: string): Record<string, unknown> {
  const file = api.openapiFiles[version];
  if (!file) throw new Error(`API ${api.name} has no OpenAPI document of version ${version}`);
  return parseDocument(file);
}

/** The GraphQL schema's SDL, read from its file: the schema is built from it once and the text let go. */
export function graphqlSdl(api: ApiDescriptor): string | undefined {
  return api.graphqlFile === undefined ? undefined : readFileSync(api.graphqlFile, "utf8");
}
