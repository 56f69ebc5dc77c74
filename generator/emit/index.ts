// Emit pass: runs every emitter over the IR of each API and gathers their files. Emitters
// are pure functions returning {path, contents}; only the write pass touches the disk.
import type { IrApi } from "../ir/index.js";
import { emitDescriptors } from "./descriptors.js";
import { generatedPaths } from "../ir/names.js";
import { buildSchema, modelColumns, sortKeys, type Schema } from "./schema.js";
import { emitRows } from "./rows.js";
import { emitGraphql } from "./graphql.js";
import { emitMigrations, type MigrationIntents, type MigrationState } from "./migrations.js";
import { storedColumn } from "../../runtime/descriptor.js";
import { emitDrfOpenApi } from "./openapi/drf.js";
import { emitWordpressOpenApi } from "./openapi/wordpress.js";
import { openApiText } from "./openapi/text.js";

export interface EmittedFile {
  /** Path under `generated/`, `/`-separated. */
  path: string;
  contents: string;
}

/** What the emitters need from the previous generation: each API's migration state. */
export type PreviousState = (api: string) => MigrationState;

export type OpenApiEmitter = (api: IrApi, version: string) => Record<string, unknown>;

const openApiEmitters: Record<IrApi["profile"], OpenApiEmitter> = {
  drf: emitDrfOpenApi,
  wordpress: emitWordpressOpenApi,
};

/** OpenAPI documents keep their authored key order; emitters sort what needs sorting. */
function openApiFile(path: string, value: unknown): EmittedFile {
  return { path, contents: openApiText(value) };
}

/** The spec's renames, backfills and discards, and where each table and column comes from. */
function intentsOf(api: IrApi): MigrationIntents {
  const models = new Map(api.models.map((m) => [m.table, m]));
  return {
    renames: Object.fromEntries(api.models.map((m) => [m.table, m.migration.renames])),
    backfills: Object.fromEntries(api.models.map((m) => [m.table, m.migration.backfills])),
    blankDefaults: new Set(api.models.flatMap((m) => m.migration.blankDefaults.map((c) => `${m.table}.${c}`))),
    discard: new Set(api.discard),
    origin(table, column) {
      const m = models.get(table);
      if (!m) return api.file;
      const field = column === undefined ? undefined : m.fields.find((f) => storedColumn(f) === column);
      return `${m.file}: model ${m.name}${field ? `, field ${field.name}` : ""}`;
    },
  };
}

/** Every file of every API, or the migration steps refused (then nothing may be written). */
export function emitAll(apis: IrApi[], previous: PreviousState): { files: EmittedFile[]; refusals: string[] } {
  const files: EmittedFile[] = [...emitDescriptors(apis)];
  const refusals: string[] = [];
  for (const api of apis) {
    for (const version of api.versions.supported) {
      files.push(openApiFile(generatedPaths.openapi(api.name, version), openApiEmitters[api.profile](api, version)));
    }
    files.push(emitRows(api, modelColumns(api)));
    const graphql = emitGraphql(api);
    if (graphql) files.push(graphql);
    const schema: Schema = buildSchema(api);
    const { files: migrations, snapshot, refusals: refused } = emitMigrations(api.name, schema, previous(api.name), intentsOf(api));
    refusals.push(...refused);
    for (const m of migrations) files.push({ path: generatedPaths.migration(api.name, m.name), contents: m.sql });
    files.push({ path: generatedPaths.snapshot(api.name), contents: JSON.stringify(sortKeys(snapshot), null, 2) + "\n" });
  }
  return { files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), refusals };
}
