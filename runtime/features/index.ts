// The cross-cutting features, each one folder here behind the `Feature` interface (types.ts),
// in the order the engine tells them of writes: change records before the permission check,
// so that a refused write rolls back with its records.
import type { ModelIndex } from "../models.js";
import type { DynamicFilterProvider } from "../query/filters.js";
import type { PeriodicTask, TaskHandler } from "../queue/worker.js";
import type { Feature, TaskSetting } from "./types.js";
import { feature as tags } from "./tags/index.js";
import { feature as customFields } from "./custom-fields/index.js";
import { feature as relationships } from "./relationships/index.js";
import { feature as notes } from "./notes/index.js";
import { feature as changes } from "./changes/index.js";
import { feature as permissions } from "./permissions/index.js";
import { feature as webhooks } from "./webhooks/index.js";
import { feature as jobs } from "./jobs/index.js";
import { feature as git } from "./git/index.js";

export type { Feature, FeatureEngine, TaskSetting } from "./types.js";

export const FEATURES: readonly Feature[] = [tags, customFields, relationships, notes, changes, permissions, webhooks, jobs, git];

/** The providers of filters whose names are data, for an api: those of the features it has. */
export function dynamicFilters(index: ModelIndex): DynamicFilterProvider[] {
  return FEATURES.flatMap((f) => f.filters?.(index) ?? []);
}

/** The queue's handlers, by task kind: what a worker runs. */
export function taskHandlers(setting: TaskSetting): Record<string, TaskHandler> {
  return Object.assign({}, ...FEATURES.map((f) => f.tasks?.(setting) ?? {}));
}

/** The work every queue worker does each poll interval, by name. */
export function periodicTasks(setting: TaskSetting): Record<string, PeriodicTask> {
  return Object.assign({}, ...FEATURES.map((f) => f.periodic?.(setting) ?? {}));
}
