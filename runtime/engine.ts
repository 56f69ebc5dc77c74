// One API's engine: its models, its store, its operations and the write features its spec
// calls for (object permissions, change records and webhooks), wired once per API and
// process. Profiles turn requests into this engine's operations and its results into
// responses; whatever else writes for a user (jobs, the CLI) takes the same engine, so every
// write goes through the one pipeline.
import type { Knex } from "knex";
import type { ApiDescriptor } from "./descriptor.js";
import { ModelIndex } from "./models.js";
import { Store } from "./store.js";
import { Operations } from "./operations/index.js";
import { Permissions } from "./features/permissions/index.js";
import { FEATURES } from "./features/index.js";

/** Each API's engine on `db`, made once (a queue worker's, whose tasks run on its database). */
export function enginesOn(db: Knex): (api: ApiDescriptor) => Engine {
  const made = new Map<string, Engine>();
  return (api) => {
    let engine = made.get(api.name);
    if (!engine) made.set(api.name, (engine = new Engine(api, db)));
    return engine;
  };
}

export class Engine {
  readonly index: ModelIndex;
  readonly store: Store;
  readonly operations: Operations;
  /** The api's object permissions, when its spec has them. */
  readonly permissions?: Permissions;

  constructor(readonly api: ApiDescriptor, readonly db: Knex) {
    this.index = new ModelIndex(api);
    this.store = new Store(this.index);
    this.operations = new Operations(db);
    this.permissions = Permissions.of(this.index, api.auth ? this.index.model(api.auth.users) : undefined);
    for (const feature of FEATURES) {
      const part = feature.write?.(this);
      if (part) this.store.use(part);
    }
    // This instance's own writes to users, groups and permissions count at once, not after the trust period.
    const permissions = this.permissions;
    if (permissions) this.store.onWrite((m) => { if (permissions.sources.has(m)) permissions.forget(); });
  }
}
