// The hook authors' module, and the one runtime module hook modules import
// (test/unit/layering.test.ts checks): the hook types (the contract's, runtime/descriptor.ts,
// and the engine's parts of the events, runtime/hook-events.ts), the refusals a hook throws,
// the helpers that turn a model's generated names (generated/<api>/tables.ts) into SQL, so a
// hook never spells a table or column, and the engine's and the features' helpers that hooks
// share. A refusal becomes a 4xx in the API's own format and rolls back the write, like any
// validation error; a refusal a profile words is a problem (runtime/problems.ts), never text
// of another profile's.
import { ValidationError } from "./errors.js";
import { duplicateErrors } from "./text/uniqueness.js";
import type { Leaf } from "./problems.js";
import type { HookDb, MethodFilter, ModelDescriptor, ReadValue } from "./descriptor.js";
import type { ModelIndex } from "./models.js";
import type { FilterErrors, FilterPlan } from "./query/filters.js";
import * as membership from "./query/membership.js";
import { dynamicFilters } from "./features/index.js";

export type {
  Allocation, ContentTypeField, ContentTypesField, DeleteEvent, DeletingEvent, Dependent, FieldRow, HookDb, M2mField, MethodFilter, ModelDescriptor, ModelHooks,
  ReadValue, StatementRows, StatusField, StoredTime,
} from "./descriptor.js";
export type { ActionEvent, AllocateEvent, SaveEvent, SavedEvent } from "./hook-events.js";
export type { Leaf, Problem } from "./problems.js";
export type { Engine } from "./engine.js";
export type { Actor, Operation, WriteOperation } from "./operations/index.js";
export type { MemberSet, SetOperator } from "./query/membership.js";

// The engine's helpers hooks share.
export { Answer, forbidden, HttpError, notFound, ValidationError, type FieldErrors } from "./errors.js";
export { col, containsPattern, ident, literal, textSearch } from "./query/sql.js";
export { prepared } from "./db/prepared.js";
export { canonicalUuid, FilterCompiler, isUuid } from "./query/filters.js";
export { labelOf, linkedTypes } from "./kinds/content-types.js";
export { setDefaultStatus } from "./kinds/status.js";
export { subtreeIds } from "./kinds/tree.js";
export { bitsOf, blocksOf, formatAddress, parseAddress, withLength, type Family } from "./text/addresses.js";
export { slugify } from "./text/slugs.js";
export { render } from "./templates/jinja.js";
export { dataProblem, schemaProblem } from "./write/json-schema.js";
export { validFilename } from "./media/index.js";
export { environmentValue, isFile, readText } from "./host.js";

// The features' helpers hooks share (their models' rules: custom fields, relationships, jobs, Git).
export {
  checkAssociation, classPathOf, compileRegex, contentChoices, CrontabError, filterValueErrors, JobRecords, parseCrontab, queueRun, queueSync, registerGitSource,
  Schedules, TERMINAL, valueProblem,
  type Content, type GitSource, type Interval, type JobRow, type RepositoryRecord, type SyncContext, type VariableRecord,
} from "./features/index.js";

/** The models of `index`'s api and the providers of their filters named by data, as stored filters are planned over. */
const memberFilters = (index: ModelIndex): membership.MemberFilters => ({ index, providers: dynamicFilters(index) });

/** What the REST list of `m` would answer a 400 with for this stored filter as its query, by parameter; null when it would list. */
export function filterProblems(db: HookDb, index: ModelIndex, m: ModelDescriptor, filter: Record<string, unknown>): Promise<FilterErrors | null> {
  return membership.filterProblems(db, memberFilters(index), m, filter);
}

/** The rows of `m` in a set of stored filters, as a filter plan on the row aliased `t0` (runtime/query/membership.ts). */
export function membershipPlan(db: HookDb, index: ModelIndex, m: ModelDescriptor, set: membership.MemberSet): Promise<FilterPlan> {
  return membership.membershipPlan(db, memberFilters(index), m, set);
}

/** What a method filter's condition is given. */
export type MethodQuery = Parameters<MethodFilter>[0];
/** What a computed value's hook is given: the row, and where it is one of a statement's many, `rows`. */
export type ReadRow = Parameters<ReadValue>[0];

/**
 * What a hook refuses, by field name (or `non_field_errors`): its API's own text, or a problem
 * (runtime/problems.ts) the profile words as it words the engine's. A validation error like
 * any other, wherever the hook runs (before or after a save, a delete, an action).
 */
export class Refusal extends ValidationError {
  constructor(messages: Record<string, Leaf>) {
    super(Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, [v]])));
  }
}

/**
 * The refusal of a row that duplicates another's `fields` (of `model`), as the engine refuses
 * a duplicate the database finds: keyed and worded by the spec's rule for them (a unique field
 * or group, checked by a serializer's validator or by Django's model validation).
 */
export function duplicate(model: ModelDescriptor, ...fields: string[]): ValidationError {
  return new ValidationError(duplicateErrors(model, fields.map((name) => model.fields.find((f) => f.name === name)!)));
}

/** A model's column names by field name, as `generated/<api>/tables.ts` gives them. */
export type ColumnNames = Readonly<Record<string, string>>;

/** A model's stored names, as `generated/<api>/tables.ts` gives them: its table and its columns by field name. */
export interface ModelNames<C extends ColumnNames = ColumnNames> {
  readonly table: string;
  readonly columns: C;
}

/**
 * A model's columns by field name, for SQL: qualified by `alias` when one is given
 * (`columns(tables.dcim.device, "d").site` is `d.site_id`). Every row's key is `id`.
 */
export function columns<C extends ColumnNames>(names: ModelNames<C>, alias?: string): { readonly [F in keyof C]: string } {
  if (alias === undefined) return names.columns;
  return Object.fromEntries(Object.entries(names.columns).map(([f, c]) => [f, `${alias}.${c}`])) as { [F in keyof C]: string };
}

/**
 * A select list reading a model's columns (of the row aliased `alias`, when given) under their
 * field names, in Knex's `{ name: column }` form: `only` those fields, else all of them. Rows
 * a hook reads this way are keyed as its event's rows are.
 */
export function fields<C extends ColumnNames>(names: ModelNames<C>, only?: ReadonlyArray<keyof C & string>, alias?: string): Record<string, string> {
  const all = columns(names, alias);
  return Object.fromEntries((only ?? Object.keys(all)).map((f) => [f, all[f]]));
}

/**
 * The row of a model with id `id`, by field name (`R`: its type from `generated/<api>/rows.ts`);
 * undefined when there is none or `id` is null. With `lock`, the row is locked until the
 * transaction ends.
 */
export async function readRow<R extends object>(db: HookDb, names: ModelNames, id: unknown, lock = false): Promise<R | undefined> {
  if (id === null || id === undefined) return undefined;
  const q = db(names.table).where("id", id).first(fields(names));
  return (lock ? q.forUpdate() : q) as Promise<R | undefined>;
}
