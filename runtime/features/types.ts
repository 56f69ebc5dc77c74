// The one interface of the cross-cutting features (runtime/features/<name>/): tags, custom
// fields, relationships, notes, object permissions, the change log, webhooks, jobs and Git.
// Each says what it brings and the engine asks for it, through the registry (index.ts) only:
// field kinds for the kinds table, filter parameters whose names are data for the filter
// sets, what it lends the engine, its part in every write operation, the narrowing of every
// read, what it is told of writes, the routes it serves below a model's own (entries of the
// contract's FEATURE_ROUTES, which the generated route tables and so the OpenAPI documents
// carry), what it adds to OPTIONS, and the queue tasks it runs. A feature the api's spec does
// not call for brings nothing.
import type { Config } from "../config.js";
import type { ApiDescriptor, FeatureRoute, ModelDescriptor } from "../descriptor.js";
import type { Engine } from "../engine.js";
import type { Db } from "../kinds/types.js";
import type { ModelIndex } from "../models.js";
import type { Actor, RowCondition, WriteFeature } from "../operations/index.js";
import type { DynamicFilterProvider } from "../query/filters.js";
import type { PeriodicTask, TaskHandler } from "../queue/worker.js";
import type { Store } from "../store.js";
import type { RuntimeKindTable } from "../kinds/types.js";
import type { Permissions } from "./permissions/index.js";

/** What features lend the engine, its callers (profiles, jobs, hooks) and one another, by name. */
export interface FeatureServices {
  /** The api's object permissions (permissions/): what a user holds, and on which rows. */
  permissions?: Permissions;
  /** What the change log's statement also looks up over the records it writes (jobs/: the job hooks they call for). */
  recorded?: RecordedLookup;
}

/**
 * A lookup over the change records a write makes, run by the change log's own statement (a
 * common table expression over `inserted`, the records as written, aliased as the lookup
 * says): what follows from a change record costs the write no statement of its own.
 */
export interface RecordedLookup {
  /** The SELECT over `inserted AS <alias>` for changes of `m` by `action`, with its bindings; none when it can find nothing. */
  query(m: ModelDescriptor, action: "create" | "update" | "delete", alias: string): { sql: string; bindings: unknown[] } | undefined;
  /**
   * An SQL condition, with its bindings, false when the query can find nothing for changes of
   * `m` by `action` whatever the records (no hook names them): a write then need not ask.
   */
  may(m: ModelDescriptor, action: "create" | "update" | "delete"): { sql: string; bindings: unknown[] } | undefined;
  /** Acts on the rows the query found (as JSON), in the write's transaction. */
  found(trx: Db, rows: Array<Record<string, unknown>>): Promise<void>;
}

/** What a feature's part in one api's engine is made with: the engine's pieces, and what the features lent. */
export interface FeatureEngine {
  index: ModelIndex;
  store: Store;
  services: FeatureServices;
}

/** What a worker's task handlers are made with: the process's configuration, the APIs, and each API's engine on the worker's database. */
export interface TaskSetting {
  config: Config;
  apis: ApiDescriptor[];
  engineOf(api: ApiDescriptor): Engine;
}

/** An SQL condition on one row (its alias given when asked), with its bound values. */
export type { RowCondition };

/** A narrowing of every read: the engine asks each feature that has one and reads only rows meeting all of them. */
export interface ReadScope {
  /** The condition the rows of `m` aliased `alias` must meet for `actor` to `action` them (view them, to read): null when every row does. */
  narrow(actor: Actor, m: ModelDescriptor, alias: string, action: string): RowCondition | null;
}

/** Told of the model of every row the engine's store writes or deletes, once the statement ran (in or out of an operation). */
export type WriteObserver = (m: ModelDescriptor) => void;

/**
 * What a feature adds to a model's OPTIONS description (DRF's metadata), given the request's
 * version, every version the api serves, and the description so far: it, with the addition.
 */
export type OptionsContribution = (db: Db, m: ModelDescriptor, version: string, versions: string[], info: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface Feature {
  /** As documentation names it. */
  readonly name: string;
  /** The field kinds it brings; the registry (index.ts) completes the kinds table (runtime/kinds/index.ts) with them. */
  readonly kinds?: Partial<RuntimeKindTable>;
  /** The filter parameters named by data (a custom field's, a relationship's) it adds to filter sets. */
  filters?(index: ModelIndex): DynamicFilterProvider | undefined;
  /** What it lends the engine and the other features, made once per engine before anything else is asked. */
  services?(index: ModelIndex): FeatureServices;
  /** Its part in the api's write operations: told of every row written and deleted. */
  write?(engine: FeatureEngine): WriteFeature | undefined;
  /** How it narrows every read of the api (object permissions: the rows a user may view). */
  readScope?(engine: FeatureEngine): ReadScope | undefined;
  /** What it is told of the store's writes, operation or not (to forget what they make stale). */
  observe?(engine: FeatureEngine): WriteObserver | undefined;
  /** The routes it serves below models' own: its entries of the contract's FEATURE_ROUTES. */
  routes?(index: ModelIndex): readonly FeatureRoute[];
  /** What it adds to a model's OPTIONS description. */
  options?(index: ModelIndex): OptionsContribution | undefined;
  /** The queue tasks it runs, by task kind. */
  tasks?(setting: TaskSetting): Record<string, TaskHandler>;
  /** What every queue worker does each poll interval besides its tasks, by name. */
  periodic?(setting: TaskSetting): Record<string, PeriodicTask>;
}
