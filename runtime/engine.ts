// One API's engine: its models, its store, its operations and what the features its spec
// calls for bring it (runtime/features/index.ts: object permissions, change records, webhooks,
// jobs…), wired once per API and process. This is the composition root of an api: it reaches
// the features through their registry only. Profiles turn requests into this engine's operations and its results into
// responses; whatever else writes for a user (jobs, the CLI) takes the same engine, so every
// write goes through the one pipeline.
import type { Knex } from "knex";
import type { ApiDescriptor, FkField, ModelDescriptor } from "./descriptor.js";
import { col } from "./query/sql.js";
import { ModelIndex } from "./models.js";
import { Store } from "./store.js";
import { Operations, type Actor } from "./operations/index.js";
import { engineFeatures, type Permissions, type ReadScope, type RowCondition } from "./features/index.js";

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
  /** The api's object permissions, when its spec has them (lent by their feature). */
  readonly permissions?: Permissions;
  private readonly scopes: ReadScope[];

  constructor(readonly api: ApiDescriptor, readonly db: Knex) {
    this.index = new ModelIndex(api);
    this.store = new Store(this.index);
    this.operations = new Operations(db, (actor) => (m, alias, action = "view") => this.scope(actor, m, alias, action));
    const features = engineFeatures(this.index, this.store);
    this.permissions = features.services.permissions;
    for (const part of features.writes) this.store.use(part);
    for (const observer of features.observers) this.store.onWrite(observer);
    this.scopes = features.scopes;
  }

  /**
   * The condition rows of `m` aliased `alias` must meet for `actor` to `action` them (to view
   * them, to read): those of every feature that narrows (object permissions), and for a model
   * owned by its requester, the actor's own rows. Null when every row does.
   */
  scope(actor: Actor, m: ModelDescriptor, alias: string, action = "view"): RowCondition | null {
    const parts = this.scopes.flatMap((s) => s.narrow(actor, m, alias, action) ?? []);
    const owner = m.features.ownedByRequester ? m.fields.find((f): f is FkField => f.kind === "fk" && !!f.fromRequestUser) : undefined;
    if (owner) parts.push({ sql: `${col(alias, owner.column)} = ?`, bindings: [actor.userId] });
    if (parts.length < 2) return parts[0] ?? null;
    return { sql: parts.map((p) => `(${p.sql})`).join(" AND "), bindings: parts.flatMap((p) => p.bindings) };
  }
}
