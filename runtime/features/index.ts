// The cross-cutting features, each one folder here behind the `Feature` interface (types.ts),
// registered here and nowhere else: the engine, the profiles, the queue and the hooks reach a
// feature only through this module (test/unit/layering.test.ts checks), which asks every
// feature in turn and re-exports the few things of a feature that its callers name. The order
// is the one the engine tells them of writes in: change records before the permission check,
// so that a refused write rolls back with its records.
import type { ModelIndex } from "../models.js";
import type { WriteFeature } from "../operations/index.js";
import type { DynamicFilterProvider } from "../query/filters.js";
import type { PeriodicTask, TaskHandler } from "../queue/worker.js";
import type { Store } from "../store.js";
import { registerKinds } from "../kinds/index.js";
import type { FeatureRoute } from "../descriptor.js";
import type { Feature, FeatureEngine, FeatureServices, OptionsContribution, ReadScope, TaskSetting, WriteObserver } from "./types.js";
import { feature as tags } from "./tags/index.js";
import { feature as customFields } from "./custom-fields/index.js";
import { feature as relationships } from "./relationships/index.js";
import { feature as notes } from "./notes/index.js";
import { feature as changes } from "./changes/index.js";
import { feature as permissions } from "./permissions/index.js";
import { feature as webhooks } from "./webhooks/index.js";
import { feature as jobs } from "./jobs/index.js";
import { feature as git } from "./git/index.js";

export type * from "./types.js";

// What callers name of particular features: the profiles (notes, export templates, custom
// fields' OPTIONS, permissions), the CLI (jobs) and, through runtime/hooks.ts, the hook modules.
export { compileRegex, valueProblem } from "./custom-fields/values.js";
export { customFieldColumns, type CustomFieldColumn } from "./custom-fields/index.js";
export { filterValueErrors } from "./relationships/objects.js";
export { checkAssociation } from "./relationships/associations.js";
export { notesOf, type ObjectNotes } from "./notes/index.js";
export { EXPORT_PARAM, exportTemplates, type ExportTemplates } from "./export-templates/index.js";
export { actionOf, Permissions, viewExempt, type Grants } from "./permissions/index.js";
export type { Condition } from "./permissions/constraints.js";
export {
  classPathOf, CrontabError, JobRecords, parseCrontab, queueRun, Schedules, syncJobs, TERMINAL, type Interval, type JobRow, type VariableRecord,
} from "./jobs/index.js";
export { contentChoices, queueSync, registerGitSource, type Content, type GitSource, type RepositoryRecord, type SyncContext } from "./git/index.js";

export const FEATURES: readonly Feature[] = [tags, customFields, relationships, notes, changes, permissions, webhooks, jobs, git];

// The kinds table is whole once this module has loaded: its type makes a kind that no feature brings a compile error here.
registerKinds({ ...tags.kinds, ...customFields.kinds, ...relationships.kinds });

/** What the features bring one api's engine, made once per engine (runtime/engine.ts). */
export interface EngineFeatures {
  services: FeatureServices;
  /** Their parts in write operations, in the features' order. */
  writes: WriteFeature[];
  observers: WriteObserver[];
  /** Every narrowing of reads: a row is read only when it meets all of them. */
  scopes: ReadScope[];
}

/** The features' parts in the engine of `index`'s api, whose store is `store`. */
export function engineFeatures(index: ModelIndex, store: Store): EngineFeatures {
  const services: FeatureServices = Object.assign({}, ...FEATURES.map((f) => f.services?.(index) ?? {}));
  const engine: FeatureEngine = { index, store, services };
  return {
    services,
    writes: FEATURES.flatMap((f) => f.write?.(engine) ?? []),
    observers: FEATURES.flatMap((f) => f.observe?.(engine) ?? []),
    scopes: FEATURES.flatMap((f) => f.readScope?.(engine) ?? []),
  };
}

/** The providers of filters whose names are data, for an api: those of the features it has. */
export function dynamicFilters(index: ModelIndex): DynamicFilterProvider[] {
  return FEATURES.flatMap((f) => f.filters?.(index) ?? []);
}

/** The routes the features serve below models' own, for an api. */
export function featureRoutes(index: ModelIndex): readonly FeatureRoute[] {
  return FEATURES.flatMap((f) => f.routes?.(index) ?? []);
}

/** What the features add to OPTIONS descriptions, for an api, in the features' order. */
export function optionsContributions(index: ModelIndex): OptionsContribution[] {
  return FEATURES.flatMap((f) => f.options?.(index) ?? []);
}

/** The queue's handlers, by task kind: what a worker runs. */
export function taskHandlers(setting: TaskSetting): Record<string, TaskHandler> {
  return Object.assign({}, ...FEATURES.map((f) => f.tasks?.(setting) ?? {}));
}

/** The work every queue worker does each poll interval, by name. */
export function periodicTasks(setting: TaskSetting): Record<string, PeriodicTask> {
  return Object.assign({}, ...FEATURES.map((f) => f.periodic?.(setting) ?? {}));
}
