// The events the engine gives a model's hooks, whole: the contract's part of each
// (runtime/descriptor.ts) and the engine's own parts, which the contract does not name so that
// it imports nothing of the runtime. Hook modules take these from runtime/hooks.ts.
import type { ActionEventBase, ActionPage, AllocateEventBase, FieldRow, ModelDescriptor, SavedEventBase, SaveEventBase } from "./descriptor.js";
import type { Engine } from "./engine.js";
import type { ModelIndex } from "./models.js";
import type { Actor, Operation } from "./operations/index.js";
import type { FilterPlan } from "./query/filters.js";

/** A save of one row (see SaveEventBase), with every model of the api. */
export interface SaveEvent<R extends object = FieldRow> extends SaveEventBase<R> {
  index: ModelIndex;
}

/** A save once the row (and its links) are written (see SavedEventBase), with every model of the api. */
export interface SavedEvent<R extends object = FieldRow> extends SavedEventBase<R> {
  index: ModelIndex;
}

/** What the engine adds to an action's request (see ActionEventBase). */
interface ActionEngine {
  /**
   * The page the request asks for of the rows of `m` that `filter` selects, as `m`'s list shows
   * them (less the excludable fields `exclude` names, as the request's `exclude` would), with
   * how many there are: one statement. A paginated action answers with it as is.
   */
  list(m: ModelDescriptor, filter: FilterPlan, exclude?: string[]): Promise<ActionPage>;
  /** The api's engine, for an action that writes: its operations run as `actor`. */
  engine: Engine;
  /** The requester as the actor of the operations the action runs. */
  actor: Actor;
  /** The request's reads, as `actor`'s: the store's calls take it, and it says which rows the requester may reach. */
  op: Operation;
}

/** A request for an action of one object (see ActionEventBase). */
export interface ActionEvent extends ActionEventBase, ActionEngine {}

/** A POST to an action that creates objects (see AllocateEventBase). */
export interface AllocateEvent extends AllocateEventBase, ActionEngine {}
