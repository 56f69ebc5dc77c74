// The one interface of the cross-cutting features (runtime/features/<name>/): tags, custom
// fields, relationships, notes, object permissions, the change log, webhooks, jobs and Git.
// Each says what it brings and the engine asks for it, through the registry (index.ts) only:
// field kinds for the kinds table, filter parameters whose names are data for the filter
// sets, what it lends the engine, its part in every write operation, the narrowing of every
// read, what it is told of writes, the routes it serves below a model's own, what it adds to
// OPTIONS and to the OpenAPI documents, and the queue tasks it runs. A feature the api's spec
// does not call for brings nothing.
import type { Config } from "../config.js";
import type { ApiDescriptor, ModelDescriptor } from "../descriptor.js";
import type { Engine } from "../engine.js";
import type { Db } from "../kinds/types.js";
import type { ModelIndex } from "../models.js";
import type { Actor, WriteFeature } from "../operations/index.js";
import type { DynamicFilterProvider } from "../query/filters.js";
import type { PeriodicTask, TaskHandler } from "../queue/worker.js";
import type { Store } from "../store.js";
import type { RuntimeKindTable } from "../kinds/types.js";
import type { Permissions } from "./permissions/index.js";

/** What features lend the engine, its callers (profiles, jobs, hooks) and one another, by name. */
export interface FeatureServices {
  /** The api's object permissions (permissions/): what a user holds, and on which rows. */
  permissions?: Permissions;
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
export interface RowCondition {
  sql: string;
  bindings: unknown[];
}

/** A narrowing of every read: the engine asks each feature that has one and reads only rows meeting all of them. */
export interface ReadScope {
  /** The condition the rows of `m` aliased `alias` must meet for `actor` to read them: null when every row does. */
  narrow(actor: Actor, m: ModelDescriptor, alias: string): RowCondition | null;
}

/** Told of the model of every row the engine's store writes or deletes, once the statement ran (in or out of an operation). */
export type WriteObserver = (m: ModelDescriptor) => void;

/**
 * A route a feature serves below a model's own routes (notes' `<object>/notes/`), for the
 * profile's route table: where it hangs, what it is called, what it answers.
 */
export interface FeatureRoute {
  /** Below one object's detail route, below a model's list route, or at the api's root. */
  below: "detail" | "list" | "root";
  /** Its path below that, with the trailing slash (`notes/`). */
  path: string;
  /** Its view kind, as the profile's route table names view kinds. */
  view: string;
  methods: string[];
  /** Whether it is served below the routes of `m` (a model with the feature). */
  serves(m: ModelDescriptor): boolean;
}

/**
 * What a feature adds to a model's OPTIONS description (DRF's metadata), given the request's
 * version, every version the api serves, and the description so far: it, with the addition.
 */
export type OptionsContribution = (db: Db, m: ModelDescriptor, version: string, versions: string[], info: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** What a feature adds to the api's OpenAPI documents: its routes' operations and the parameters they share. */
export interface OpenApiContribution {
  /** Path items by path template below the route `FeatureRoute.below` names, for a model it serves. */
  paths?(m: ModelDescriptor): Record<string, unknown>;
  /** Shared parameters (`components.parameters`), by name. */
  parameters?: Record<string, unknown>;
}

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
  /** The routes it serves below models' own. */
  routes?(index: ModelIndex): FeatureRoute[];
  /** What it adds to a model's OPTIONS description. */
  options?(index: ModelIndex): OptionsContribution | undefined;
  /** What it adds to the api's OpenAPI documents. */
  openapi?(index: ModelIndex): OpenApiContribution | undefined;
  /** The queue tasks it runs, by task kind. */
  tasks?(setting: TaskSetting): Record<string, TaskHandler>;
  /** What every queue worker does each poll interval besides its tasks, by name. */
  periodic?(setting: TaskSetting): Record<string, PeriodicTask>;
}
