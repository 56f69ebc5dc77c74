// The one interface of the cross-cutting features (runtime/features/<name>/): tags, custom
// fields, relationships, notes, object permissions, the change log and webhooks. Each says
// what it brings and the engine asks for it: field kinds for the kinds table, filter
// parameters whose names are data for the filter sets, its part in every write operation,
// and the queue tasks it runs. A feature the api's spec does not call for brings nothing.
import type { Config } from "../config.js";
import type { ApiDescriptor } from "../descriptor.js";
import type { Engine } from "../engine.js";
import type { ModelIndex } from "../models.js";
import type { WriteFeature } from "../operations/index.js";
import type { DynamicFilterProvider } from "../query/filters.js";
import type { PeriodicTask, TaskHandler } from "../queue/worker.js";
import type { Store } from "../store.js";
import type { RuntimeKindTable } from "../kinds/types.js";
import type { Permissions } from "./permissions/index.js";

/** What a feature's part in writes is made with: the engine's pieces. */
export interface FeatureEngine {
  index: ModelIndex;
  store: Store;
  permissions?: Permissions;
}

/** What a worker's task handlers are made with: the process's configuration, the APIs, and each API's engine on the worker's database. */
export interface TaskSetting {
  config: Config;
  apis: ApiDescriptor[];
  engineOf(api: ApiDescriptor): Engine;
}

export interface Feature {
  /** As documentation names it. */
  readonly name: string;
  /** The field kinds it brings; the kinds table (runtime/kinds/index.ts) takes them from here. */
  readonly kinds?: Partial<RuntimeKindTable>;
  /** The filter parameters named by data (a custom field's, a relationship's) it adds to filter sets. */
  filters?(index: ModelIndex): DynamicFilterProvider | undefined;
  /** Its part in the api's write operations: told of every row written and deleted. */
  write?(engine: FeatureEngine): WriteFeature | undefined;
  /** The queue tasks it runs, by task kind. */
  tasks?(setting: TaskSetting): Record<string, TaskHandler>;
  /** What every queue worker does each poll interval besides its tasks, by name. */
  periodic?(setting: TaskSetting): Record<string, PeriodicTask>;
}
