// Emit pass: runs every emitter over the IR of each API and gathers their files. Emitters
// are pure functions returning {path, contents}; only the write pass touches the disk.
import type { IrApi } from "../ir/index.js";
import { emitDescriptors } from "./descriptors.js";
import { generatedPaths } from "../ir/names.js";
import { buildSchemas, modelColumns, sortKeys, type Schema, type Table } from "./schema.js";
import { emitRows } from "./rows.js";
import { emitGraphql } from "./graphql.js";
import { emitMigrations, type MigrationIntents, type MigrationState, type RowIds } from "./migrations.js";
import { storedColumn } from "../../runtime/descriptor.js";
import { emitDrfOpenApi } from "./openapi/drf.js";
import { emitWordpressOpenApi } from "./openapi/wordpress.js";
import { openApiText } from "./openapi/text.js";

export interface EmittedFile {
  /** Path under `generated/`, `/`-separated. */
  path: string;
  contents: string;
}

/** What the emitters need from the previous generation: each migration stream's state, by its folder under generated/. */
export type PreviousState = (stream: string) => MigrationState;

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
    const emitted = emitStreams(api, previous);
    refusals.push(...emitted.refusals);
    files.push(...emitted.files);
  }
  return { files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), refusals };
}

/**
 * The migrations and snapshots of an API's streams: its own, then each app's, whose migrations
 * a database applies after the API's. Objects a stream's snapshot holds that now belong to
 * another stream have moved there with no SQL (the app's first migration replaces the one that
 * made them, on databases that ran it); a replaced migration is no longer emitted.
 */
function emitStreams(api: IrApi, previous: PreviousState): { files: EmittedFile[]; refusals: string[] } {
  const schemas = buildSchemas(api);
  const streams = [...schemas.keys()].map((app) => ({
    app,
    path: app ? generatedPaths.appStream(api.name, app) : api.name,
    source: app ? `apps/${app}/spec/` : `spec/${api.name}/`,
    replaces: app ? api.appReplaces?.[app] ?? [] : [],
  }));
  const replaced = new Set(streams.flatMap((s) => s.replaces));
  const states = new Map(streams.map((s) => [s.app, previous(s.path)]));
  const moved = new Map<string, Schema>();
  for (const s of streams) {
    const state = states.get(s.app)!;
    // Named by the spec, not found on disk: once removed, a replaced file's number stays taken.
    const retired = s.app === "" ? [...replaced] : [];
    const existing = Object.fromEntries(Object.entries(state.existing).filter(([name]) => !retired.includes(name)));
    const kept = state.snapshot && movedOut(state.snapshot, schemas, s.app, moved);
    states.set(s.app, { existing, snapshot: kept ?? state.snapshot, retired });
  }
  const floors = new Map<string, number>();
  const raise = (snapshot: Schema | null) => {
    for (const [name, t] of Object.entries(snapshot?.tables ?? {})) {
      for (const { id } of Object.values(t.rows?.byKey ?? {})) floors.set(name, Math.max(floors.get(name) ?? 1, (id ?? 0) + 1));
      if (t.rows?.nextId) floors.set(name, Math.max(floors.get(name) ?? 1, t.rows.nextId));
    }
  };
  for (const s of streams) raise(states.get(s.app)!.snapshot);
  for (const m of moved.values()) raise(m);
  const files: EmittedFile[] = [];
  const refusals: string[] = [];
  const intents = intentsOf(api);
  for (const s of streams) {
    const carriedFrom = moved.get(s.app);
    const ids: RowIds = {
      floor: (table) => floors.get(table) ?? 1,
      carried: (table, key) => carriedFrom?.tables[table]?.rows?.byKey[key]?.id,
    };
    const { files: migrations, snapshot, refusals: refused } = emitMigrations(
      { source: s.source, replaces: s.replaces.map((r) => `${api.name}/${r}`) }, schemas.get(s.app)!, states.get(s.app)!, intents, ids);
    refusals.push(...refused);
    raise(snapshot);
    for (const m of migrations) files.push({ path: generatedPaths.migration(s.path, m.name), contents: m.sql });
    files.push({ path: generatedPaths.snapshot(s.path), contents: JSON.stringify(sortKeys(snapshot), null, 2) + "\n" });
  }
  return { files, refusals };
}

/**
 * `snapshot` (stream `from`'s) without what another stream now owns: its tables, its owned rows
 * and its seed rows, each added to `moved` under the stream that owns it now.
 */
function movedOut(snapshot: Schema, schemas: Map<string, Schema>, from: string, moved: Map<string, Schema>): Schema {
  const tables: Record<string, Table> = {};
  const take = (to: string, name: string, part: Partial<Table>) => {
    const into = moved.get(to) ?? moved.set(to, { tables: {} }).get(to)!;
    const t = (into.tables[name] ??= { columns: {}, uniques: {}, indexes: {} });
    if (part.rows) t.rows = { byKey: { ...t.rows?.byKey, ...part.rows.byKey } };
  };
  const ownerNow = (name: string) => [...schemas].find(([, s]) => s.tables[name] && !s.tables[name].external)?.[0];
  for (const [name, t] of Object.entries(snapshot.tables)) {
    const owner = ownerNow(name);
    if (owner !== undefined && owner !== from && !t.external) {
      take(owner, name, t);
      continue;
    }
    const rows = { ...t.rows?.byKey };
    const seeds = { ...t.seedRows };
    for (const [to, s] of schemas) {
      if (to === from) continue;
      const there = s.tables[name];
      for (const key of Object.keys(there?.rows?.byKey ?? {})) {
        if (!rows[key]) continue;
        take(to, name, { rows: { byKey: { [key]: rows[key] } } });
        delete rows[key];
      }
      for (const key of Object.keys(there?.seedRows ?? {})) delete seeds[key];
    }
    const next: Table = { ...t };
    if (t.rows) next.rows = { ...t.rows, byKey: rows };
    if (t.seedRows) next.seedRows = seeds;
    if (t.seedRows && !Object.keys(seeds).length) delete next.seedRows;
    tables[name] = next;
  }
  const sql = Object.fromEntries(Object.entries(snapshot.sql ?? {}).filter(([key]) => ![...schemas].some(([to, s]) => to !== from && s.sql?.[key])));
  return { ...snapshot, tables, ...(snapshot.sql ? { sql } : {}) };
}
