// Emit pass: runs every emitter over the IR of each API and gathers their files. Emitters
// are pure functions returning {path, contents}; only the write pass touches the disk.
import type { IrApi } from "../ir/index.js";
import { emitDescriptors } from "./descriptors.js";
import { generatedPaths } from "../ir/names.js";
import { buildSchema, sortKeys, type Schema } from "./schema.js";
import { emitMigrations, type MigrationState } from "./migrations.js";
import { emitDrfOpenApi } from "./openapi/drf.js";
import { emitWordpressOpenApi } from "./openapi/wordpress.js";

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
function jsonFile(path: string, value: unknown): EmittedFile {
  return { path, contents: JSON.stringify(value, null, 2) + "\n" };
}

export function emitAll(apis: IrApi[], previous: PreviousState): EmittedFile[] {
  const files: EmittedFile[] = [...emitDescriptors(apis)];
  for (const api of apis) {
    for (const version of api.versions.supported) {
      files.push(jsonFile(generatedPaths.openapi(api.name, version), openApiEmitters[api.profile](api, version)));
    }
    const schema: Schema = buildSchema(api);
    const { files: migrations, snapshot } = emitMigrations(api.name, schema, previous(api.name));
    for (const m of migrations) files.push({ path: generatedPaths.migration(api.name, m.name), contents: m.sql });
    files.push({ path: generatedPaths.snapshot(api.name), contents: JSON.stringify(sortKeys(snapshot), null, 2) + "\n" });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
