// What a field kind does at run time: the SQL expression of its value in the one-statement
// read, turning that value into the response, taking a written value apart into columns
// (or work after the row is saved), and its OPTIONS metadata. One module per kind
// implements this (registered in index.ts); the engine asks the field's kind and never
// switches on kinds itself.
import type { Knex } from "knex";
import type { DisplayTransform, FieldDescriptor, FieldKind, FieldOf, ModelDescriptor, StatementRows } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import type { ErrorTree, Problem } from "../problems.js";
import type { WriteOperation } from "../operations/index.js";

export type Db = Knex | Knex.Transaction;
export type Shape = "full" | "nested" | "brief";

export interface RenderContext {
  /** `http://host` plus the API base path, for building `url`s. */
  apiUrl: string;
}

/** Turns a selected value into the response value; `shown` holds the fields of the response rendered before it. */
export type Render = (value: unknown, ctx: RenderContext, row: Record<string, unknown>, shown: Record<string, unknown>) => unknown;

/** Where a field is being read: the model, the row's SQL alias, the nesting depth and the form. */
export interface ReadContext {
  index: ModelIndex;
  model: ModelDescriptor;
  alias: string;
  version: string;
  shape: Shape;
  /** Whether related objects may still be nested here; beyond the limit they are bare ids. */
  canNest: boolean;
  /** Whether this object is embedded in another one's response rather than being what was asked for. */
  embedded: boolean;
  /** Where the row is one of the statement's many, its own: what may be worked out once for the row or for all of them. */
  rows?: StatementRows;
  /** JSON of one `target` row in nested form (or of its `fields`), where `where(alias)` picks it. */
  nestedObject(target: ModelDescriptor, where: (alias: string) => string, fields?: string[]): string;
  /** JSON array of `target` rows in nested form and the target's ordering; `from(alias)` is the FROM clause giving them as `alias` (kinds/related.ts). */
  nestedList(target: ModelDescriptor, from: (alias: string) => string): string;
  /**
   * The JSON text of one `target` row in nested form (or of its `fields`) where `where(alias)`
   * picks it, `null` where none does; undefined when a field of that form has no JSON text.
   */
  nestedObjectJson(target: ModelDescriptor, where: (alias: string) => string, fields?: string[]): string | undefined;
  /**
   * `nestedObjectJson` of the `target` row whose id is `key` (an SQL expression over the row):
   * joined once by the statement where the row is its own (the page's rows hashed against the
   * targets), looked up by a sub-select for each row elsewhere.
   */
  linkedObjectJson(target: ModelDescriptor, key: string, fields?: string[]): string | undefined;
  /** The JSON text of `nestedList`'s array; undefined when a field of the nested form has none. */
  nestedListJson(target: ModelDescriptor, from: (alias: string) => string): string | undefined;
  /** Turns one nested JSON object of `target` (or of its `fields`) into its response form. */
  nestedRenderer(target: ModelDescriptor, fields?: string[]): (obj: Record<string, unknown>, ctx: RenderContext) => Record<string, unknown>;
  /** The display string of the row aliased `alias`. */
  displayExpr(m: ModelDescriptor, alias: string): string;
  /**
   * What the plan may take for granted about data it cannot see when it is built (which
   * relationships exist, say): the value believed now for the fact `key`, which the
   * statement re-checks with `probe` (an SQL text expression). When the probe disagrees, the
   * plan is rebuilt on what it found and the statement runs again.
   */
  assume(key: string, probe: string): string;
}

/**
 * Work a write does once its row has an id: for that row alone, or (`SetWork`) work that
 * rows written together share, done for all of them at once.
 */
export type AfterSave = ((id: string | number) => Promise<void>) | SetWork<never>;

/**
 * After-save work a set of rows can share (a bulk create): the works of the set's rows with
 * the same `key` are done by one `run` over all of them, each row with its own `payload`; a
 * row written alone is a set of one.
 */
export interface SetWork<P> {
  key: string;
  payload: P;
  run(db: Db, rows: Array<{ id: string | number; payload: P }>): Promise<void>;
}

export const setWork = <P>(key: string, payload: P, run: SetWork<P>["run"]): SetWork<never> => ({ key, payload, run }) as unknown as SetWork<never>;

/** Does each row's after-save work: one call per row for row work, one per key for set work. */
export async function doAfterSave(db: Db, rows: Array<{ id: string | number; work: AfterSave[] }>): Promise<void> {
  const sets = new Map<string, { run: SetWork<unknown>["run"]; rows: Array<{ id: string | number; payload: unknown }> }>();
  for (const { id, work } of rows) {
    for (const w of work) {
      if (typeof w === "function") await w(id);
      else {
        const set = sets.get(w.key) ?? { run: (w as SetWork<unknown>).run, rows: [] };
        sets.set(w.key, set);
        set.rows.push({ id, payload: (w as SetWork<unknown>).payload });
      }
    }
  }
  for (const { run, rows: shared } of sets.values()) await run(db, shared);
}

/** A write in progress: what a kind may add to the row, and the help it may ask for. */
export interface WriteContext {
  /** The operation writing (its transaction is `db`). */
  op: WriteOperation;
  db: Db;
  index: ModelIndex;
  model: ModelDescriptor;
  /** The row being updated; null on create. */
  id: string | number | null;
  userId?: string;
  /** The API version the request speaks (the api's default where the profile has no versions). */
  version: string;
  /** Column values to write. */
  row: Record<string, unknown>;
  /** The whole set each link field written will hold, by field name: ids, or content-type labels (for the model's hooks). */
  links: Record<string, Array<string | number>>;
  /** Work that needs the saved row's id (join tables), run after the row is written. */
  afterSave: AfterSave[];
  /** The fields the request gave (and their kinds took), so creates can tell an absent field from a given one. */
  written: Set<string>;
  /** Whether its statements may be sent ahead of their outcome (WriteOptions.ahead): after-save work may send its own so. */
  ahead?: boolean;
  /**
   * A reference to one `target` row (an id or an attribute dictionary), as its id; `where`
   * (an SQL condition on the row aliased `alias`) narrows the rows it may name. With `hold`,
   * a row named by its id is also held (FOR KEY SHARE) by the statement that finds it, until
   * the transaction ends (`heldRows` tells which).
   */
  resolve(target: string, value: unknown, nullable: boolean, where?: (alias: string) => string, hold?: boolean): Promise<string | null>;
}

/**
 * A value a client wrote that this field refuses: the problem becomes the field's error, or
 * `detail` when the refusal has a shape of its own: a list's items by index, as DRF's ListField
 * reports them, or one entry per item, as a many-related field does.
 */
export class FieldProblem extends Error {
  constructor(readonly problem: Problem, readonly detail?: ErrorTree) {
    super(problem.code);
  }
}

export interface OptionsContext {
  /** The OPTIONS description of a related model's nested form, or null beyond the first level. */
  children(target: string): Record<string, unknown> | null;
}

export interface RuntimeFieldKind<F extends FieldDescriptor> {
  /** The SQL expression of the value in the read's select list; absent when nothing is selected. */
  read?(f: F, ctx: ReadContext): string;
  /** Turns the selected value into the response value; the value as selected when absent. */
  render?(f: F, ctx: ReadContext): Render;
  /**
   * The response value as SQL of its JSON text (runtime/query/json-text.ts), never NULL: what
   * JSON.stringify writes of `render` over `read`, so the answer passes through untouched.
   * Absent or undefined where only JavaScript can make it: a plan holding the field is then
   * rendered by `render`.
   */
  json?(f: F, ctx: ReadContext): string | undefined;
  /**
   * Takes a written value apart into `ctx.row` columns or after-save work, queued on
   * `afterSave` (the field's own queue: the fields' work runs in field order, whichever write
   * ends first); absent: never written.
   */
  write?(f: F, value: unknown, ctx: WriteContext, afterSave: AfterSave[]): Promise<void>;
  /**
   * `write` in two steps, where what a value comes to depends on the value alone (and the
   * operation, model and version, which the drafts of a set share): drafts written together
   * (a bulk body's elements) resolve each distinct value once (write/prepare.ts), so a
   * thousand elements naming the same site are one lookup, not a thousand suspended writes.
   * The kind's `write` is then `writeByValue`'s.
   */
  byValue?: ValueWrite<F>;
  /** Whether `write` checks the value itself, so schema errors other than `required` are left to it. */
  checksOwnValue?: boolean;
  /** Whether the column holds JSON: `ctx.row` holds it as the text written, a model's hooks see it parsed. */
  storesJson?(f: F): boolean;
  /** Fills the column on create when the body left it out. */
  onCreate?(f: F, ctx: WriteContext): void | Promise<void>;
  /**
   * `onCreate` for the rows of a set written together, where a row's value must see the
   * others' as well as the stored rows (a slug kept free of both): given them all at once.
   */
  onCreateSet?(f: F, ctxs: WriteContext[]): Promise<void>;
  /**
   * Whether an update's check of the value must see the rows updated before it in the same
   * set stored (a tree's parent closing no cycle): such sets are updated one row at a time.
   */
  updatesAlone?(f: F): boolean;
  /**
   * Called as a write starts, before any field is taken: reads the kind will need later in
   * the write, asked for now so that they share the statement of the write's reference
   * checks (write/lookups.ts). What it gives is awaited by whoever uses it, not here.
   */
  prefetch?(f: F, ctx: WriteContext): Promise<unknown> | undefined;
  /** Sets the column on every update. */
  onUpdate?(f: F, ctx: WriteContext): void;
  /**
   * The value is made from the whole object, not read from a column of its own (DRF's
   * `source="*"`: a URL, a display string, a tree depth). A related object
   * named by attributes drops such fields of its nested form, as DRF's writable nested
   * serializer does, so that an object as a read gave it names itself.
   */
  madeFromObject?: true;
  /** Removes what the field keeps outside its row, before rows are deleted. */
  onDelete?(f: F, db: Db, model: ModelDescriptor, ids: Array<string | number>): Promise<void>;
  /**
   * The text of the value in a display string, given the SQL of its column and the template's
   * transform; the column cast to text when absent.
   */
  displayText?(f: F, column: string, transform?: DisplayTransform): string;
  /**
   * OPTIONS (DRF SimpleMetadata) `type`, and anything else the kind adds to the field's entry:
   * from the descriptor (`describe`), or from the data, read at each request (`live`).
   */
  options: {
    type: (f: F) => string;
    describe?(f: F, info: Record<string, unknown>, ctx: OptionsContext): void;
    live?(f: F, db: Db): Promise<Record<string, unknown>>;
  };
}

/**
 * A write by value (RuntimeFieldKind.byValue): `resolve` checks the value and finds what it
 * names (a problem thrown as FieldProblem), synchronously where it can; `apply` puts what it
 * found into one draft.
 */
export interface ValueWrite<F extends FieldDescriptor, R = unknown> {
  resolve(f: F, value: unknown, ctx: WriteContext): R | Promise<R>;
  apply(f: F, resolved: R, ctx: WriteContext, afterSave: AfterSave[]): void;
  /** Whether each draft must resolve its value alone, however many give the same (a password's hash has a salt of its own). */
  alone?(f: F): boolean;
}

/** A kind's `write` and `byValue` from its write by value. */
export function writeByValue<F extends FieldDescriptor, R = unknown>(byValue: ValueWrite<F, R>): Pick<RuntimeFieldKind<F>, "write" | "byValue"> {
  return {
    byValue,
    async write(f, value, ctx, afterSave) {
      byValue.apply(f, await byValue.resolve(f, value, ctx), ctx, afterSave);
    },
  };
}

export type RuntimeKindTable = { [K in FieldKind]: RuntimeFieldKind<FieldOf<K>> };

/** A JSON object (or a parsed form's, which has no prototype); never an array or a class's instance (an upload). */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
