// The model store: list, fetch, create, update and delete for any model, driven by its
// descriptor. Reads use the single-statement read plans; writes validate, resolve related
// objects, persist and report field-keyed errors. Every call is given its operation
// (operations/index.ts): reads see only the rows its actor may, writes run in its transaction
// (the store never opens one, so bulk work stays all-or-none) and its features hear of them.
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { isLink, storedColumn, type FieldDescriptor, type FieldRow, type ModelDescriptor, type Ordering } from "./descriptor.js";
import type { ModelIndex } from "./models.js";
import { orderSql, orderTerms, termsSql, type OrderTerm } from "./query/order.js";
import { afterBranches, cursorTypes, cursorValues } from "./query/keyset.js";
import { assumptionColumn, ReadPlans, type ReadPlan, type RenderContext, type Shape } from "./query/read-plan.js";
import { Arriving, ArrivingJsonText, finished, Finishing, JsonText, urlValues, withUrls, type TextUrls } from "./query/json-text.js";
import { siteUrl } from "./kinds/image.js";
import { canonicalUuid, checkColumns, filterErrors, integerKey, isUuid, MAX_SERIAL, type FilterErrors, type FilterPlan } from "./query/filters.js";
import { heldRows, lookupsOf } from "./write/lookups.js";
import { HookValues, storedRows, storedRowsAt } from "./write/hook-rows.js";
import { insertRows, updateRows } from "./write/row-sets.js";
import { col, ident, keyedRows, literal } from "./query/sql.js";
import { bound, positionedAs, prepared, type PlanMode } from "./db/prepared.js";
import { withValues } from "./db/with-values.js";
import { sendAhead, sendPresumption } from "./db/pipeline.js";
import { HttpError, ValidationError, notFound, type FieldErrors } from "./errors.js";
import { WriteValidators } from "./write/validate.js";
import { prepareDraft, prepareDrafts } from "./write/prepare.js";
import { kindOf } from "./kinds/index.js";
import { doAfterSave, FieldProblem, isPlainObject, type WriteContext } from "./kinds/types.js";
import { duplicateErrors } from "./text/uniqueness.js";
import type { Dependent, Problem } from "./problems.js";
import { pendingOf, tellAtEnd, type AlongAnswer, type Operation, type RowId, type WriteFeature, type WriteOperation } from "./operations/index.js";
import { KeptTexts } from "./kept-texts.js";

export type { RowId } from "./operations/index.js";

export type Db = Knex | Knex.Transaction;

/** What a statement did to the rows of a model, as write listeners are told. */
export type Change = "create" | "update" | "delete";

export interface ReadOptions {
  shape: Shape;
  version: string;
  /** Excludable fields to leave out (the request's `exclude`). */
  exclude?: string[];
  /** Opt-in fields to show (the request's `include`), or all of them. */
  include?: string[] | "all";
  ctx: RenderContext;
  /**
   * Whatever rows the operation's actor may view: those it just wrote, as Nautobot answers a
   * write with the object it saved, or a job hook's object.
   */
  unscoped?: boolean;
  /** A list's order when not the model's own; naming `id` replaces the final tie-break on it. */
  ordering?: Ordering[];
  /** The JSON text `listJson` and `fetchJson` give of each row, when a profile shapes records its own way: in place of the plan's. */
  text?: RowText;
  /** The values of `text`'s placeholders (`?`), in the order they come in its SQL: what the request alone knows. */
  textValues?: readonly Knex.RawBinding[];
}

/** SQL of a row's JSON text over the alias `t0`, markers as runtime/query/json-text.ts has them. */
export interface RowText {
  /** Tells it from a plan's other texts: the statements built on it are kept by plan and key. */
  readonly key: string;
  readonly sql: string;
}

/**
 * A feature's work in the statement of a write's answer (Store.alongAnswer): the answer's keys
 * its objects leave out, and the fields it shows otherwise than the answer does (name, SQL of
 * their JSON text), written beside it.
 */
interface Along {
  along: AlongAnswer;
  dropped: string[];
  own: ReadonlyArray<readonly [string, string]>;
}

/** The order's values (as text) of the last row a keyset page showed. */
export type Cursor = Array<string | null>;

/** A page of a list: `limit` rows (null: all) from `offset`, or, given `after`, those after that cursor (none yet: []). */
export interface Page {
  limit: number | null;
  offset: number;
  after?: Cursor;
  /** Leave the count out (null): a read of every row in pages needs none. */
  uncounted?: boolean;
}

export interface WriteOptions {
  version: string;
  /** Whose a new row of a model owned by its requester is, when not the actor's (a command making a user's token). */
  owner?: string;
  /** PATCH semantics: only given fields change, nothing is required. */
  partial: boolean;
  /**
   * Give the id once the write's statements are sent, not answered (runtime/db/pipeline.ts):
   * for a caller whose next statements may go with them, in an operation (Operations.run) that
   * waits for them before it ends and fails with the first that failed.
   */
  ahead?: boolean;
  /** A verdict (the caller's lock of the row) the write waits for before it writes anything, read meanwhile. */
  after?: Promise<unknown>;
}

/** The savepoint of a bulk write's set (`Store.markSet`). */
const SET_SAVEPOINT = "bulk_elements";

/** The server-side cursor of `Store.streamed`: one at a time in a transaction, which is one export's. */
const STREAM_CURSOR = "armature_stream";

/** What a statement gives: a query builder's rows, or a raw query's result. */
type Rows = Array<Record<string, unknown>> | { rows: Array<Record<string, unknown>> };

const rowsOf = (result: Rows): Array<Record<string, unknown>> => (Array.isArray(result) ? result : result.rows);

/** The JSON text `opts` asks of `plan` (a profile's own, or the plan's) for a statement over many rows, and the joins it reads from after `t0`. */
const textOfMany = (plan: ReadPlan, opts: ReadOptions): { json: string; joins: string } | undefined =>
  (opts.text ? { json: opts.text.sql, joins: "" } : plan.joined);

/** A filter plan's checks as select-list entries, to ride along in the statement they judge. */
function checkSelects(db: Db, filter: FilterPlan): Knex.Raw[] {
  return checkColumns(filter.checks).map((c) => db.raw(c.sql, c.bindings as Knex.RawBinding[]));
}

/** `qb` (rows `t0` of `m`) narrowed to those `op`'s actor may `action`. */
function scoped(op: Operation, m: ModelDescriptor, qb: Knex.QueryBuilder, action = "view"): Knex.QueryBuilder {
  const cond = op.scope(m, "t0", action);
  return cond ? qb.whereRaw(cond.sql, cond.bindings as Knex.RawBinding[]) : qb;
}

/** Options of `Store.existing`. */
export interface ExistingOptions {
  /** Further conditions (a detail route's filters). */
  where?: (qb: Knex.QueryBuilder) => void;
  /** What the actor is to do with the rows (view, change, delete): they must be ones it may. */
  action?: string;
  /** Lock the rows until the operation ends. */
  lock?: boolean;
}

/** A hook's check (SaveEventBase.check) run and judged at once. */
async function checkNow<T>(query: Knex.Raw | Knex.QueryBuilder, verdict: (found: T) => unknown): Promise<void> {
  await verdict(await (query as unknown as Promise<T>));
}

/** A hook's check sent ahead in the transaction `db`, judged when the operation waits for it. */
const checkAhead = (db: Db) => <T>(query: Knex.Raw | Knex.QueryBuilder, verdict: (found: T) => unknown, holds?: string) => sendAhead<T>(db, query, { then: verdict, holds });

/** The name a column read for an anticipated read (Store.anticipate) goes by beside the answer's own. */
const alongAlias = (alias: string) => `_along_${alias}`;

export { MAX_SERIAL } from "./query/filters.js";

/**
 * Rows by id. One id is compared for equality, not as an array of one: a prepared statement's
 * generic plan then expects one row, as each custom plan does, and PostgreSQL keeps it after a
 * few executions; against `= ANY($1)` it guesses several rows, finds the generic plan dearer,
 * and plans every execution again (a detail read's nested statement took longer to plan than
 * to run).
 */
function byIds(qb: Knex.QueryBuilder, ids: string[] | number[], cast: "uuid[]" | "integer[]"): void {
  if (ids.length === 1) qb.whereRaw(`t0.id = ?::${cast.slice(0, -2)}`, [ids[0]]);
  else qb.whereRaw(`t0.id = ANY(?::${cast})`, [ids]);
}

/**
 * How a page's limit, and the first page's offset, go into a list statement: written into its
 * text, unless the statement is planned for its values anyway (`valueSensitive`, planned for
 * each execution's). As parameters, a prepared list statement's generic plan cannot know how
 * few rows a page takes, guesses a tenth of the table, and comes out dearer than a plan for the values:
 * PostgreSQL then planned every execution again (on a page of 50 prefixes, as long as running
 * it). As text, the first page of a list with no other parameters is planned once per
 * connection, and one with equality filters keeps a generic plan as cheap as its custom ones.
 * Limits are few (a client's page size); offsets are not, and a text per offset would crowd a
 * connection's prepared statements (MAX_PER_CONNECTION) out of the ones that are hot: a later
 * page keeps its offset a parameter, and its statement is planned for it as before.
 */
function pageTerm(n: number, filter: FilterPlan, term: "limit" | "offset"): { skipBinding: boolean } {
  return { skipBinding: !filter.valueSensitive && Number.isSafeInteger(n) && (term === "limit" ? n >= 0 : n === 0) };
}

/**
 * How a list's statement is planned (runtime/db/prepared.ts): for its values where they decide
 * how many rows it selects (ranges, containment, patterns: `valueSensitive`) and its rows are
 * not chosen apart (`Store.chosenApart`), else once.
 */
const planOf = (filter: FilterPlan, apart: ChosenApart | undefined): PlanMode => (filter.valueSensitive && !apart ? "custom" : "generic");

/** The statements, with their values written in, that choose and count a list page's rows (`Store.chosenApart`). */
interface ChosenApart { ids: string; count: string }

/** The rows of a list's statement; on a keyset page, a cursor value its term's type cannot hold is a cursor this server did not make. */
async function cursorRefused(statement: Knex.QueryBuilder, keyset: boolean): Promise<Array<Record<string, unknown>>> {
  return statement.catch((err: { code?: string }) => {
    throw keyset && err.code?.startsWith("22") ? new HttpError(404, { code: "invalid_cursor" }) : err;
  });
}

/** A page of a list as JSON text: the count of all, the page's objects, and where a page by cursor ends. */
export interface ListJson<T extends JsonText | ArrivingJsonText = JsonText | ArrivingJsonText> {
  count: number;
  results: T;
  cursor?: Cursor | null;
}

/**
 * A list's rows as PostgreSQL sends them (runtime/db/prepared.ts `rowByRow`): the first, which
 * carries the count and the checks, as soon as it comes; the objects' texts finished and given
 * as pieces (`pieces`) on arrival. An engine that gives the rows at the end gives them to
 * `ended`.
 */
class RowsArriving {
  readonly pieces = new Arriving();
  readonly first: Promise<Record<string, unknown> | undefined>;
  private firstCame!: (row: Record<string, unknown> | undefined) => void;
  private firstFailed!: (err: unknown) => void;
  private readonly finishing: Finishing;
  private seen = 0;
  private dropped = false;

  constructor() {
    this.first = new Promise((resolve, reject) => {
      this.firstCame = resolve;
      this.firstFailed = reject;
    });
    // Each piece given is written as a chunk of its own (runtime/http/json-text.ts
    // sendArrivingJson): an object's text alone was a chunk each, and a list of 1,000 sent so
    // lost a third of its throughput.
    this.finishing = new Finishing((piece) => {
      if (!this.dropped) this.pieces.give(piece);
    }, Infinity);
  }

  readonly onRow = (row: Record<string, unknown>): void => {
    if (!this.seen++) this.firstCame(row);
    if (this.dropped || row.j === null) return;
    if (this.seen > 1) this.finishing.add(",");
    this.finishing.finish(row.j as string);
  };

  ended(left: Array<Record<string, unknown>>): void {
    for (const row of left) this.onRow(row);
    this.firstCame(undefined);
    this.finishing.close();
    this.pieces.end();
  }

  failed(err: unknown): void {
    this.firstFailed(err);
    this.pieces.fail(err);
  }

  /** The rows are no answer (the plan they were read by was void): those still to come are let go. */
  abandon(): void {
    this.dropped = true;
  }
}

/** Characters of statement text kept for plans' reads at most, the least recently used forgotten first. */
const TEXT_CHARACTERS = 8_000_000;
let planSerial = 0;

export class Store {
  readonly plans: ReadPlans;
  /**
   * The texts of a plan's unfiltered reads, by what else their text depends on (page, order,
   * scope): knex builds and compiles such a statement once, and each request binds its values.
   * Null where the values would not bind in the order this store gives them.
   */
  private readonly texts = new KeptTexts<string | null>(TEXT_CHARACTERS, (text) => text?.length ?? 0);
  /** Tells plans apart in the keys of `texts`. */
  private readonly planSerials = new WeakMap<ReadPlan, number>();
  readonly validators: WriteValidators;

  private readonly writeListeners: Array<(m: ModelDescriptor, change: Change) => void> = [];
  /** Rows a write's answer read (`answer`), by transaction, until a read by the same statement takes them. */
  private readonly kept = new WeakMap<object, { key: string; rows: Array<Record<string, unknown>> }>();
  /** Reads that follow a write's answer of the same rows in its operation (`anticipate`). */
  private readonly followingReads: Array<(m: ModelDescriptor) => ReadOptions | undefined> = [];
  private readonly features: WriteFeature[] = [];
  /** Types of order terms, by model and order: they change only with the schema. */
  private readonly orderTypes = new Map<string, string[]>();
  /** Whether unknown keys in a write body are refused (the API's STRICT_WRITE_FIELDS) or ignored. */
  readonly strictFields: boolean;

  constructor(readonly index: ModelIndex) {
    this.plans = new ReadPlans(index);
    this.validators = new WriteValidators(index.api);
    this.strictFields = index.api.settings.STRICT_WRITE_FIELDS === true;
  }

  /**
   * Says which read of a model's written rows will follow a write's answer in the same
   * operation (the change log's, in the API's latest version): where the answer's own plan
   * differs (a request in an older version), its statement reads those columns too, and the
   * following read takes its rows from there rather than reading them again.
   */
  anticipate(reads: (m: ModelDescriptor) => ReadOptions | undefined): void {
    this.followingReads.push(reads);
  }

  /** Calls `listener` with the model of every row this store writes or deletes, and how, once the statement ran. */
  onWrite(listener: (m: ModelDescriptor, change: Change) => void): void {
    this.writeListeners.push(listener);
  }

  /** Adds a feature every write of an operation goes through (see operations/index.ts). */
  use(feature: WriteFeature): void {
    this.features.push(feature);
  }

  /** Tells the features, within the operation, that rows of `m` were created or updated. */
  private async saved(op: WriteOperation, m: ModelDescriptor, ids: RowId[], action: "create" | "update"): Promise<void> {
    if (!ids.length) return;
    this.expecting(op, m, action);
    for (const f of this.features) {
      if (!f.watches(m)) continue;
      if (f.savedAtEnd) tellAtEnd(op, f, m, action, ids);
      else await f.saved?.(op, m, ids, action);
    }
  }

  /**
   * Tells the features told at the operation's end that rows of `m` are (about to be) written
   * (`expecting`): a bulk write tells them before its drafts are made, so that what they will
   * read rides in the statement of the drafts' reference checks, not in a round trip of its own.
   */
  private expecting(op: WriteOperation, m: ModelDescriptor, action: "create" | "update"): void {
    for (const f of this.features) if (f.savedAtEnd && f.watches(m)) f.expecting?.(op, m, action);
  }

  /**
   * The savepoint a bulk write rolls back to when its set is refused, sent ahead of its outcome
   * (runtime/db/pipeline.ts): with the set's first statement, not in a round trip of its own.
   */
  private async markSet(op: WriteOperation): Promise<void> {
    await sendAhead(op.trx, op.trx.raw(`SAVEPOINT ${SET_SAVEPOINT}`));
  }

  /** Whether deleting rows of `m` must go through the store for a feature to see them. */
  private watchedDeletes(m: ModelDescriptor): boolean {
    return this.features.some((f) => f.deleting && f.watches(m));
  }

  /** The ids among `ids` that can be keys of rows of `m`, and the SQL array type binding them. */
  private keys(m: ModelDescriptor, ids: RowId[]): { valid: string[] | number[]; cast: "uuid[]" | "integer[]" } {
    if (!this.index.integerKeys(m)) return { valid: ids.filter((id): id is string => typeof id === "string" && isUuid(id)), cast: "uuid[]" };
    return { valid: ids.filter((id) => /^\d+$/.test(String(id)) && Number(id) <= MAX_SERIAL).map(Number), cast: "integer[]" };
  }

  /** Whether a path's id could name a row of `m` (a UUID, or an integer for integer keys). */
  isKey(m: ModelDescriptor, id: string): boolean {
    return this.keys(m, [id]).valid.length === 1;
  }

  /**
   * One statement: the count, and the page's rows chosen first (ordering and offset over bare
   * rows, which the ordering index serves) and only then projected, so related-object
   * sub-selects run for the rows returned, not for every row an offset skips.
   */
  async list(op: Operation, m: ModelDescriptor, filter: FilterPlan, page: Page, opts: ReadOptions):
    Promise<{ count: number; results: Array<Record<string, unknown>>; cursor?: Cursor | null }> {
    const db = op.trx;
    const ordering = opts.ordering ?? m.ordering;
    const keyset = page.after !== undefined;
    const { terms, types } = await this.keysetOf(db, m, ordering, page);
    const apart = this.chosenApart(op, m, filter, page, opts);
    return this.withPlan(m, opts, async (plan) => {
      const projected = this.projected(op, m, filter, page, opts, plan, terms, types, plan.select, apart?.ids);
      const statement = db.select(
        this.counted(op, m, filter, page, opts, apart),
        db.raw("(SELECT coalesce(json_agg(r), '[]'::json) FROM (?) r) AS rows", [projected]),
        ...checkSelects(db, filter),
        ...ReadPlans.checks(plan).map((c) => db.raw(c)),
      );
      // A list filtered by ranges, containment or patterns is planned for its values where its
      // rows are not chosen apart: how many rows a `within` selects decides between walking the
      // ordering index and sorting the matches, and a generic plan, blind to them, sorted
      // 20,000 prefixes for a page of 50 that the index gives at once.
      const [row] = await cursorRefused(prepared(statement, planOf(filter, apart)), keyset);
      return {
        row,
        answer: () => {
          const errors = filterErrors(filter, {}, row);
          if (errors) throw new ValidationError(errors);
          const { count, rows } = row as { count: string; rows: Array<Record<string, unknown>> };
          if (!keyset) return { count: Number(count), results: rows.map((r) => plan.render(r, opts.ctx)) };
          const more = page.limit !== null && rows.length > page.limit;
          const shown = more ? rows.slice(0, page.limit!) : rows;
          return { count: Number(count), results: shown.map((r) => plan.render(r, opts.ctx)), cursor: more ? shown.at(-1)!._cursor as Cursor : null };
        },
      };
    });
  }

  /**
   * `list` of a page (by offset or by cursor) as the JSON text of its results, written by
   * PostgreSQL in the same one statement; undefined where the plan can only be rendered in
   * JavaScript.
   */
  listJson(op: Operation, m: ModelDescriptor, filter: FilterPlan, page: Page, opts: ReadOptions, arriving?: false): Promise<ListJson<JsonText> | undefined>;
  /** `arriving`: an offset page's objects are given as PostgreSQL sends them, once the first row has come (ArrivingJsonText). */
  listJson(op: Operation, m: ModelDescriptor, filter: FilterPlan, page: Page, opts: ReadOptions, arriving: boolean): Promise<ListJson | undefined>;
  async listJson(op: Operation, m: ModelDescriptor, filter: FilterPlan, page: Page, opts: ReadOptions, arriving = false): Promise<ListJson | undefined> {
    if (!(opts.text ?? this.planFor(m, opts).json)) return undefined;
    const db = op.trx;
    const scope = opts.unscoped ? null : op.scope(m, "t0", "view");
    const ordering = opts.ordering ?? m.ordering;
    const keyset = page.after !== undefined;
    const { terms, types } = await this.keysetOf(db, m, ordering, page);
    // A keyset page reads one row more than it shows: whether another page follows.
    const shown = keyset ? page.limit : null;
    const apart = this.chosenApart(op, m, filter, page, opts);
    return this.withPlan<ListJson | undefined>(m, opts, async (plan) => {
      const many = textOfMany(plan, opts);
      // A fact the plan was built on may have changed into one JavaScript must render.
      if (!many) return { row: undefined, answer: () => undefined };
      // A row for each object of the page (its JSON text `j`, in order), each carrying the
      // count and the checks; one row with a NULL `j` when the page is empty. Not one text of
      // the whole page: pg would read a page of a thousand as one message into a buffer grown
      // by doubling, and give it as one string of megabytes.
      // The rows come in the page's order with no ORDER BY of the statement's own: a join on
      // nothing (or on an inequality) can only be a nested loop, and one whose outer side is
      // the single row `one` gives the inner side's rows in the order they come, the order of
      // the page's sub-select (kept whole: PostgreSQL does not flatten a sub-select that
      // sorts). Sorting them again copied every object's text once more: 1 of PostgreSQL's
      // 16 ms on a list of 1,000 devices.
      const build = () => {
        const projected = this.projected(op, m, filter, page, opts, plan, terms, types, this.textColumn(db, many.json, opts, many.joins), apart?.ids, many.joins);
        const counted = this.counted(op, m, filter, page, opts, apart);
        const statement = shown === null
          ? db.select(counted, "r.j").from(db.raw("(SELECT) one LEFT JOIN (?) r ON true", [projected]))
          : db.with("page", db.raw("SELECT p.*, row_number() OVER () AS n FROM (?) p", [projected])).select(counted, "r.j",
            db.raw(`(SELECT r._cursor FROM page r WHERE r.n = ${shown} AND EXISTS (SELECT 1 FROM page x WHERE x.n > ${shown})) AS cursor`))
            .from(db.raw(`(SELECT) one LEFT JOIN page r ON r.n <= ${shown}`));
        statement.select(...checkSelects(db, filter), ...ReadPlans.checks(plan).map((c) => db.raw(c)));
        return prepared(statement, planOf(filter, apart));
      };
      // The values are the count's selection (the scope's, and a filter's), the filter's checks',
      // then the page's: a profile's text values, the selection again and a later page's offset.
      // A filtered selection's text and values are a small statement's own: the whole one is
      // built once for each text of it. A page chosen apart has the statements that count and
      // choose its rows for values instead: one text for every selection.
      const checks = checkColumns(filter.checks);
      const shape = `${page.limit}|${!!page.uncounted}|${JSON.stringify(opts.ordering ?? null)}|${checks.map((c) => c.sql).join(",")}`;
      const checked = checks.flatMap((c) => c.bindings);
      const run = (onRow?: (row: Record<string, unknown>) => void): Promise<Array<Record<string, unknown>>> => {
        if (apart) {
          const bindings = [...(page.uncounted ? [] : [apart.count]), ...checked, ...this.textValues(opts, many.json + many.joins), apart.ids];
          return this.builtOnce(db, plan, `${opts.text?.key ?? ""}|apart|${shape}`, bindings, build, "generic", onRow);
        }
        const selection = filter.empty ? { sql: scope?.sql ?? "", bindings: scope?.bindings ?? [] } : this.selected(op, m, filter, opts).toSQL();
        const key = `${opts.text?.key ?? ""}|list|${page.offset === 0}|${shape}|${selection.sql}`;
        const bindings = [...(page.uncounted ? [] : selection.bindings), ...checked, ...this.textValues(opts, many.json + many.joins), ...selection.bindings, ...(page.offset === 0 ? [] : [page.offset])];
        return this.builtOnce(db, plan, key, bindings, build, planOf(filter, apart), onRow);
      };
      if (arriving && !keyset) {
        const rows = new RowsArriving();
        run(rows.onRow).then((left) => rows.ended(left)).catch((err: unknown) => rows.failed(err));
        const row = await rows.first;
        return {
          row,
          abandon: () => rows.abandon(),
          answer: () => {
            const errors = filterErrors(filter, {}, row);
            if (errors) throw new ValidationError(errors);
            return { count: Number((row as { count: string }).count), results: new ArrivingJsonText("[", rows.pieces, "]") };
          },
        };
      }
      const rows = keyset ? await cursorRefused(build(), keyset) : await run();
      const row = rows[0];
      return {
        row,
        answer: () => {
          const errors = filterErrors(filter, {}, row);
          if (errors) throw new ValidationError(errors);
          const { count, cursor } = row as { count: string; cursor?: Cursor | null };
          const results = finished(rows.flatMap((r) => (r.j === null ? [] : [r.j as string])));
          return keyset ? { count: Number(count), results, cursor: cursor ?? null } : { count: Number(count), results };
        },
      };
    });
  }

  /**
   * Runs the statement `build` makes, whose text depends on nothing but `plan` and `key`, with
   * `bindings`: built by knex the first time, and afterwards its text bound to the values,
   * planned as `mode` says (as `build` marks it: the text alone carries no mark).
   */
  private async builtOnce(db: Db, plan: ReadPlan, key: string, bindings: unknown[], build: () => Knex.QueryBuilder, mode: PlanMode,
    onRow?: (row: Record<string, unknown>) => void): Promise<Array<Record<string, unknown>>> {
    return rowsOf(await this.builtStatement(db, plan, key, bindings, build, mode, onRow));
  }

  /** `builtOnce`'s statement, not yet run: its kept text bound to `bindings`, or the one `build` makes (and whose text is then kept). */
  private builtStatement(db: Db, plan: ReadPlan, key: string, bindings: unknown[], build: () => Knex.QueryBuilder, mode: PlanMode,
    onRow?: (row: Record<string, unknown>) => void): Knex.QueryBuilder | Knex.Raw {
    let serial = this.planSerials.get(plan);
    if (serial === undefined) this.planSerials.set(plan, (serial = ++planSerial));
    const textKey = `${serial}|${key}`;
    const text = this.texts.get(textKey);
    const rowByRow = onRow ? { onRow } : {};
    if (text) return bound(db, text, bindings, mode).options(rowByRow);
    const statement = build().options(rowByRow);
    if (text === undefined) this.texts.set(textKey, positionedAs(statement, bindings));
    return statement;
  }

  private urls(opts: ReadOptions): TextUrls {
    return { api: opts.ctx.apiUrl, site: siteUrl(opts.ctx.apiUrl, this.index.api.basePath) };
  }

  /**
   * The values of a statement's JSON text for `opts`: its placeholders' (ReadOptions.textValues),
   * then the URLs (`withUrls`) of the markers `holding` (its SQL, with the joins it reads from) holds.
   */
  private textValues(opts: ReadOptions, holding: string): Knex.RawBinding[] {
    return [...(opts.textValues ?? []), ...urlValues(this.urls(opts), holding)];
  }

  /** The select-list entry `j` of a row's JSON text `json`, its URLs put in, for a request as `opts` reads. */
  private textColumn(db: Db, json: string, opts: ReadOptions, joins = ""): Knex.Raw {
    return db.raw(`${withUrls(json, json + joins)} AS j`, this.textValues(opts, json + joins));
  }

  /** The rows `t0` of `m` that `filter` selects and `op`'s actor may view (all of them, `unscoped`). */
  private selected(op: Operation, m: ModelDescriptor, filter: FilterPlan, opts: ReadOptions): Knex.QueryBuilder {
    const qb = op.trx(`${m.table} as t0`);
    filter.apply(qb);
    return opts.unscoped ? qb : scoped(op, m, qb);
  }

  /**
   * The rows of `page`, projected by `plan`, in the list's order: what a list's statement
   * aggregates. The page is chosen over rows joined to those its ordering reads; the chosen page
   * is re-sorted by sub-selects, fifty lookups rather than joins the projection would not need.
   * A keyset page reads one row more, to tell whether another page follows; with `after` and no
   * limit, every row past the cursor (`_cursor` then left out).
   */
  private projected(op: Operation, m: ModelDescriptor, filter: FilterPlan, page: Page, opts: ReadOptions, plan: ReadPlan,
    terms: OrderTerm[], types: string[], select: string | Knex.Raw = plan.select, chosenBy?: string, joins = ""): Knex.QueryBuilder {
    const db = op.trx;
    const column = typeof select === "string" ? db.raw(select) : select;
    if (chosenBy !== undefined) {
      const id = this.index.integerKeys(m) ? "integer" : "uuid";
      const chosen = db.raw(`(SELECT t0.*, k.armature_position FROM unnest(armature_chosen(?)) WITH ORDINALITY k(id, armature_position) JOIN ${ident(m.table)} t0 ON t0.id = k.id::${id}) t0`, [chosenBy]);
      return db.select(column).from(chosen).joinRaw(joins).orderBy("t0.armature_position");
    }
    const ordering = opts.ordering ?? m.ordering;
    const keyset = page.after !== undefined;
    const take = page.limit === null ? null : page.limit + (keyset ? 1 : 0);
    // The chosen rows carry their order's values as columns of their own, and the statement
    // orders by those: PostgreSQL sees the page already in that order and sorts nothing again.
    // Ordered by the terms' own SQL, a term through a link (an interface's device name) read a
    // sub-select per row, and the whole page, every object's text made, was sorted once more
    // before its first row could be sent.
    const orderJoins: string[] = [];
    const inner = orderTerms(this.index, m, ordering, "t0", orderJoins);
    const orderColumns = inner.map((t, i) => ({ ...t, sql: `t0.armature_order_${i}` }));
    const byOrderColumns = termsSql(orderColumns);
    const ordered = (where?: { sql: string; bindings: string[] }) => {
      const qb = this.selected(op, m, filter, opts).select("t0.*", ...inner.map((t, i) => db.raw(`${t.sql} AS armature_order_${i}`)))
        .orderByRaw(termsSql(inner));
      for (const join of orderJoins) qb.joinRaw(join);
      if (where) qb.whereRaw(where.sql, where.bindings);
      if (take !== null) qb.limit(take, pageTerm(take, filter, "limit"));
      return qb;
    };
    let chosen: Knex.QueryBuilder;
    if (keyset && page.after!.length) {
      // Each branch a range of the ordering index, merged in order; none: nothing sorts later.
      const branches = afterBranches(terms, types, page.after!).map((b) => ordered(b));
      chosen = branches.length
        ? db.queryBuilder().select("t0.*").from(db.raw(`(${branches.map(() => "(?)").join(" UNION ALL ")}) t0`, branches))
          .orderByRaw(byOrderColumns)
        : ordered({ sql: "false", bindings: [] });
      if (take !== null) chosen.limit(take, pageTerm(take, filter, "limit"));
    } else {
      chosen = ordered();
      if (!keyset) chosen.offset(page.offset, pageTerm(page.offset, filter, "offset"));
    }
    const cursor = keyset && take !== null;
    return db.select(column, ...(cursor ? [db.raw(`${cursorValues(orderColumns)} AS _cursor`)] : []))
      .from(chosen.as("t0")).joinRaw(joins).orderByRaw(byOrderColumns);
  }

  /**
   * The statements that choose and count the rows of an offset page of `filter`, with its
   * values written in (runtime/db/with-values.ts), for a list whose rows depend on them
   * (`valueSensitive`): run inside the list's statement by armature_chosen and
   * armature_counted, they are planned for those values each time, and the list's long
   * statement once for all. Planned for the values as a whole, a `within` page of prefixes
   * spent 3 ms of its 9 planning. Undefined for other lists, a page by cursor (planned for its
   * values as a whole), and where a value cannot be written in.
   */
  private chosenApart(op: Operation, m: ModelDescriptor, filter: FilterPlan, page: Page, opts: ReadOptions): ChosenApart | undefined {
    if (!filter.valueSensitive || page.after !== undefined) return undefined;
    const selection = withValues(this.selected(op, m, filter, opts).toSQL());
    if (selection === undefined || !Number.isSafeInteger(page.offset) || (page.limit !== null && !Number.isSafeInteger(page.limit))) return undefined;
    const joins: string[] = [];
    const order = orderSql(this.index, m, opts.ordering ?? m.ordering, "t0", joins);
    const limit = page.limit === null ? "" : ` LIMIT ${page.limit}`;
    return {
      ids: `SELECT ARRAY(SELECT t0.id::text FROM (${selection}) t0 ${joins.join(" ")} ORDER BY ${order}${limit} OFFSET ${page.offset})`,
      count: `SELECT count(*) FROM (${selection}) t0`,
    };
  }

  /** The count column of a list's statement: by the statement of its own where the page is chosen apart. */
  private counted(op: Operation, m: ModelDescriptor, filter: FilterPlan, page: Page, opts: ReadOptions, apart: ChosenApart | undefined): Knex.Raw {
    const db = op.trx;
    if (page.uncounted) return db.raw("NULL AS count");
    if (apart) return db.raw("(SELECT armature_counted(?)) AS count", [apart.count]);
    return db.raw("(?) AS count", [this.selected(op, m, filter, opts).count("*")]);
  }

  /**
   * Every row `filter` selects, in the list's order, read by two statements however many there
   * are: the first page by a list's statement (which checks the filters and the read plan's
   * assumptions, so a bad filter is still refused before anything is sent), the rest by one
   * server-side cursor over the rows past it, fetched `size` at a time. What the caller holds at
   * once is one page. `op.trx` must be a transaction that lasts until the last page is taken
   * (the cursor lives in it); the read plan's assumptions, checked by the first statement, hold
   * for the rest when that transaction is one snapshot (REPEATABLE READ).
   */
  async *streamed(op: Operation, m: ModelDescriptor, filter: FilterPlan, opts: ReadOptions, size: number): AsyncGenerator<Array<Record<string, unknown>>> {
    const first = await this.list(op, m, filter, { limit: size, offset: 0, after: [], uncounted: true }, opts);
    if (first.results.length) yield first.results;
    if (!first.cursor) return;
    const db = op.trx;
    const ordering = opts.ordering ?? m.ordering;
    const terms = orderTerms(this.index, m, ordering, "t0");
    const types = await this.cursorTypes(db, m, ordering, terms);
    const plan = this.planFor(m, opts);
    const rest = this.projected(op, m, filter, { limit: null, offset: 0, after: first.cursor }, opts, plan, terms, types);
    // Each row as json_agg gives a list's rows, so that they render alike.
    await db.raw(`DECLARE ${STREAM_CURSOR} NO SCROLL CURSOR FOR SELECT to_json(r) AS row FROM (?) r`, [rest]);
    try {
      for (;;) {
        const { rows } = await db.raw(`FETCH FORWARD ${Math.floor(size)} FROM ${STREAM_CURSOR}`) as { rows: Array<{ row: Record<string, unknown> }> };
        if (!rows.length) return;
        yield rows.map((r) => plan.render(r.row, opts.ctx));
      }
    } finally {
      // A transaction that failed has dropped its cursors, and its error is the one to tell.
      await db.raw(`CLOSE ${STREAM_CURSOR}`).catch(() => undefined);
    }
  }

  /**
   * Every row `filter` selects, in the list's order, as pages of `size` read one after the
   * other by keyset (each one statement, a range of the ordering index): what the caller holds
   * at once is one page, whatever the number of rows.
   */
  async *pages(op: Operation, m: ModelDescriptor, filter: FilterPlan, opts: ReadOptions, size: number): AsyncGenerator<Array<Record<string, unknown>>> {
    let after: Cursor | null = [];
    while (after) {
      const { results, cursor } = await this.list(op, m, filter, { limit: size, offset: 0, after, uncounted: true }, opts);
      if (results.length) yield results;
      after = cursor ?? null;
    }
  }

  /** A keyset page's order terms and their types (none for a page by offset); a cursor of another length is none of this list's. */
  private async keysetOf(db: Db, m: ModelDescriptor, ordering: Ordering[], page: Page): Promise<{ terms: OrderTerm[]; types: string[] }> {
    if (page.after === undefined) return { terms: [], types: [] };
    const terms = orderTerms(this.index, m, ordering, "t0");
    if (page.after.length && page.after.length !== terms.length) throw new HttpError(404, { code: "invalid_cursor" });
    return { terms, types: await this.cursorTypes(db, m, ordering, terms) };
  }

  /** The types of an order's terms, asked once per model and order: a cursor's values are read back as them. */
  private async cursorTypes(db: Db, m: ModelDescriptor, ordering: Ordering[], terms: OrderTerm[]): Promise<string[]> {
    const key = `${m.key}|${JSON.stringify(ordering)}`;
    let types = this.orderTypes.get(key);
    if (!types) {
      const [row] = (await db.raw(cursorTypes(terms, ident(m.table), "t0"))).rows;
      types = terms.map((_t, i) => String(row[`t${i}`]));
      this.orderTypes.set(key, types);
    }
    return types;
  }

  /**
   * Runs a read on the plan for `opts` and, when the statement found that a fact the plan was
   * sized by no longer holds, once more on a plan built on what it found.
   */
  private async withPlan<T>(m: ModelDescriptor, opts: ReadOptions,
    read: (plan: ReadPlan) => Promise<{ row: Record<string, unknown> | undefined; answer: () => T; abandon?: () => void }>): Promise<T> {
    const plan = this.planFor(m, opts);
    const first = await read(plan);
    if (!this.plans.learn(plan, first.row)) return first.answer();
    first.abandon?.();
    return (await read(this.planFor(m, opts))).answer();
  }

  /** Rows of any models, by model key and id, in the order asked (null where none): one read per model. */
  async readRefs(op: Operation, refs: Array<{ model: string; id: string }>, opts: ReadOptions): Promise<Array<Record<string, unknown> | null>> {
    const found = new Map<string, Record<string, unknown>>();
    for (const key of new Set(refs.map((r) => r.model))) {
      const rows = await this.fetch(op, this.index.model(key), refs.filter((r) => r.model === key).map((r) => r.id), opts);
      for (const row of rows) found.set(`${key}:${row.id}`, row);
    }
    return refs.map((r) => found.get(`${r.model}:${r.id}`) ?? null);
  }

  /** The objects with these ids, in the order given; missing ids are left out. Filter checks run in the same statement. */
  async fetch(op: Operation, m: ModelDescriptor, ids: RowId[], opts: ReadOptions, filter?: FilterPlan): Promise<Array<Record<string, unknown>>> {
    return this.read(op, m, ids, opts, filter, false);
  }

  /**
   * The object with this id as JSON text PostgreSQL writes (null: none), filter checks in the
   * same statement; undefined where the plan can only be rendered in JavaScript.
   */
  async fetchJson(op: Operation, m: ModelDescriptor, id: RowId, opts: ReadOptions, filter?: FilterPlan): Promise<JsonText | null | undefined> {
    if (!(opts.text ?? this.planFor(m, opts).json)) return undefined;
    const { valid, cast } = this.keys(m, [id]);
    if (!valid.length) return null;
    const db = op.trx;
    const scope = opts.unscoped ? null : op.scope(m, "t0", "view");
    return this.withPlan(m, opts, async (plan) => {
      const json = opts.text?.sql ?? plan.json;
      if (!json) return { row: undefined, answer: () => undefined };
      const build = () => this.textStatement(db, m, plan, json, opts, { valid, cast }, (qb) => {
        if (!opts.unscoped) scoped(op, m, qb);
        filter?.apply(qb);
      }, filter ? checkSelects(db, filter) : []);
      const [row] = !filter || filter.empty
        ? await this.builtOnce(db, plan, `${opts.text?.key ?? ""}|detail|${cast}|${scope?.sql ?? ""}`, [...this.textValues(opts, json), valid[0], ...(scope?.bindings ?? [])], build, "generic")
        : await build();
      return {
        row,
        answer: () => {
          if (filter) {
            const errors = filterErrors(filter, {}, row);
            if (errors) throw new ValidationError(errors);
          }
          return typeof row.j === "string" ? finished(row.j) : null;
        },
      };
    });
  }

  private planFor(m: ModelDescriptor, opts: ReadOptions): ReadPlan {
    return this.plans.get(m, opts.shape, opts.version, opts.exclude, opts.include);
  }

  /**
   * The statement of one object's JSON text (`j`, by `json`), `checks` beside it and then the
   * plan's checks of its facts, which do not read the row: they are answered whether or not it
   * is found. `narrow` adds conditions (a scope, a filter).
   */
  private textStatement(db: Db, m: ModelDescriptor, plan: ReadPlan, json: string, opts: ReadOptions, id: ReturnType<Store["keys"]>,
    narrow?: (qb: Knex.QueryBuilder) => void, checks: Knex.Raw[] = []): Knex.QueryBuilder {
    const qb = db(`${m.table} as t0`).select(this.textColumn(db, json, opts)).modify((q) => byIds(q, id.valid, id.cast));
    narrow?.(qb);
    return prepared(db.select(db.raw("(?) AS j", [qb]), ...checks, ...ReadPlans.checks(plan).map((c) => db.raw(c))), "generic");
  }

  /**
   * The objects of `m` as `opts` shows them, as an SQL jsonb expression over the row aliased
   * `t0` (with its bindings), for a statement that keeps them (the change log's record built in
   * SQL); `assumes`: the plan rests on facts about the data, which the statement would have to
   * check. Undefined where the plan can only be rendered in JavaScript.
   */
  jsonbOf(m: ModelDescriptor, opts: ReadOptions, many: boolean): { sql: string; bindings: unknown[]; joins: string; assumes: boolean } | undefined {
    const plan = this.planFor(m, opts);
    const text = many ? textOfMany(plan, opts) : { json: opts.text?.sql ?? plan.json, joins: "" };
    if (!text?.json) return undefined;
    const { json, joins } = text;
    // The jsonb values finished() writes again taken as they are: jsonb keeps no text of its own.
    return { sql: `replace(replace(${withUrls(json, json + joins)}, chr(3), ''), chr(4), '')::jsonb`, bindings: this.textValues(opts, json + joins), joins, assumes: plan.assumptions.length > 0 };
  }

  /**
   * A write's answer of the one object `id` as JSON text, for a write that waits for nothing
   * before its commit (runtime/db/presumed.ts): its statement is sent now, with the write's
   * others, and its text taken once the commit is answered. Undefined, sending nothing, where
   * the plan is rendered in JavaScript; the promise gives undefined where the facts the plan was
   * built on had changed, for the caller to read the object again.
   */
  answerAfterCommit(op: WriteOperation, m: ModelDescriptor, id: RowId, opts: ReadOptions): Promise<JsonText | undefined> | undefined {
    const plan = this.planFor(m, opts);
    const json = opts.text?.sql ?? plan.json;
    if (!json) return undefined;
    const db = op.trx;
    const key = this.keys(m, [id]);
    // The detail's statement of an unscoped, unfiltered read, whose text is kept the same way.
    const statement = this.builtStatement(db, plan, `${opts.text?.key ?? ""}|detail|${key.cast}|`, [...this.textValues(opts, json), key.valid[0]],
      () => this.textStatement(db, m, plan, json, opts, key), "generic");
    const answered = new Promise<Record<string, unknown> | undefined>((resolve, reject) => {
      sendAhead<Rows>(db, statement, { withCommit: true, then: (rows) => resolve(rowsOf(rows)[0]), error: (err) => (reject(err), err) }).catch(reject);
    });
    const text = answered.then((row) => (!row || this.plans.learn(plan, row) || typeof row.j !== "string" ? undefined : finished(row.j)));
    // Taken only after a commit, which fails where this failed: a write that failed (or runs
    // again) leaves it untaken, and its failure must not be an unhandled rejection.
    text.catch(() => undefined);
    return text;
  }

  /**
   * The objects a write made or changed, as its answer shows them (whatever its actor may
   * view, as Nautobot answers a write with what it saved), read as the operation's last step,
   * rendered in JavaScript: where the plan has no JSON text (`answerJson`), or a single write
   * could not take its answer after the commit. Where the change log is to read the same rows
   * at the operation's end (its records made in JavaScript: webhooks follow, or their plan has
   * no JSON text either), it takes these rows instead of reading them again (`anticipate`).
   */
  async answer(op: WriteOperation, m: ModelDescriptor, ids: RowId[], opts: ReadOptions): Promise<Array<Record<string, unknown>>> {
    return this.read(op, m, ids, { ...opts, unscoped: true }, undefined, true);
  }

  /**
   * `answer` as the JSON text of a list in the order of `ids`, each object written by
   * PostgreSQL and only the request's URLs put in by JavaScript: a bulk's answer, not parsed,
   * rendered and written again. Undefined where the plan is rendered in JavaScript. Nothing is
   * kept for a read that follows (the change log's records are made in SQL).
   */
  async answerJson(op: WriteOperation, m: ModelDescriptor, ids: RowId[], opts: ReadOptions): Promise<JsonText | undefined> {
    if (!(opts.text ?? this.planFor(m, opts).json)) return undefined;
    const { valid, cast } = this.keys(m, ids);
    const db = op.trx;
    return this.withPlan(m, opts, async (plan) => {
      const many = textOfMany(plan, opts);
      if (!many) return { row: undefined, answer: () => undefined };
      // The features' statements run once: read again with a new plan, the answer goes alone.
      const along = await this.alongAnswer(op, m, valid, opts, plan);
      if (along.length) {
        const rows = await this.answeredAlong(db, m, valid, cast, plan, opts, along);
        return { row: rows[0], answer: () => finished(rows.map((r) => r.j as string)) };
      }
      const rows: Array<Record<string, unknown>> = await prepared(db.select(this.textColumn(db, many.json, opts, many.joins), ...ReadPlans.checks(plan).map((c) => db.raw(c)))
        .from(db.raw(keyedRows(`unnest(?::${cast})`, m.table, "t0"), [valid])).joinRaw(many.joins)
        .orderBy("t0.armature_n"), "generic");
      return { row: rows[0], answer: () => finished(rows.map((r) => r.j as string)) };
    });
  }

  /**
   * The features' work that rides in the statement of a write's answer of `ids` (the
   * operation's last read): each feature told at the end whose rows of `m` are exactly these,
   * and whose read of them rests on no fact about the data. Each field it shows whose text is
   * the answer's own it takes from the answer's object; the others (a version's custom fields
   * keyed otherwise) are written for it beside the answer's, where they read from the same
   * joins. A bulk of 1,000 prefixes rendered each object twice, for its answer and for its
   * change record.
   */
  private async alongAnswer(op: WriteOperation, m: ModelDescriptor, ids: RowId[], opts: ReadOptions, plan: ReadPlan): Promise<Along[]> {
    const found: Along[] = [];
    const answer = plan.joined;
    // An answer naming a row twice would record it twice.
    if (!answer || opts.text || opts.textValues?.length || new Set(ids.map(String)).size !== ids.length) return found;
    for (const f of this.features) {
      if (!f.alongAnswer || !f.watches(m)) continue;
      const pending = pendingOf(op, f, m, ids);
      const along = pending && await f.alongAnswer(op, m, pending.action, pending.rows);
      if (!pending || !along) continue;
      const theirs = this.planFor(m, along.reads);
      if (!theirs.joined || along.reads.text || along.reads.textValues?.length || theirs.assumptions.length) continue;
      const same = new Set(answer.entries.map(([name, sql]) => `${name}\u0000${sql}`));
      const own = theirs.joined.entries.filter(([name, sql]) => !same.has(`${name}\u0000${sql}`));
      if (own.length && theirs.joined.joins !== answer.joins) continue;
      const shown = new Set(theirs.joined.entries.map(([name]) => name));
      pending.take();
      found.push({ along, dropped: answer.entries.map(([name]) => name).filter((name) => !shown.has(name)), own });
    }
    return found;
  }

  /**
   * The answer of `ids` as `answerJson` reads it by `plan`, in one statement with the features'
   * work (`alongAnswer`): each object's text made once, with the request's URLs for the answer
   * and with each feature's for its objects. Gives the statement's rows, in the order of `ids`:
   * their texts (`j`) and the plan's checks.
   */
  private async answeredAlong(db: Db, m: ModelDescriptor, ids: RowId[], cast: string, plan: ReadPlan, opts: ReadOptions, along: Along[]):
    Promise<Array<Record<string, unknown>>> {
    const { json, joins } = plan.joined!;
    const holding = json + joins;
    // The jsonb values finished() writes again taken as they are: jsonb keeps no text of its own.
    const jsonb = (text: string, holds: string) => `replace(replace(${withUrls(text, holds)}, chr(3), ''), chr(4), '')::jsonb`;
    const columns = along.flatMap(({ own }, n) => own.map(([, sql], k) => `${sql} AS armature_own_${n}_${k}`));
    const works = along.map(({ along: a, dropped, own }, n) => {
      const urls = this.urls(a.reads);
      const taken = dropped.length ? `(${jsonb("a.raw", holding)} - ARRAY[${dropped.map(literal).join(", ")}]::text[])` : jsonb("a.raw", holding);
      const added = own.map(([name, sql], k) => `${literal(name)}, ${jsonb(`a.armature_own_${n}_${k}`, sql)}`);
      return a.statement({
        rows: "armature_answer a", id: "a.id", n: "a.n",
        object: {
          sql: added.length ? `(${taken} || jsonb_build_object(${added.join(", ")}))` : taken,
          bindings: [...urlValues(urls, holding), ...own.flatMap(([, sql]) => urlValues(urls, sql))],
        },
      });
    });
    const sql = `WITH armature_answer AS MATERIALIZED (SELECT ${["t0.armature_n AS n", "t0.id", `${json} AS raw`, ...columns].join(", ")} ` +
      `FROM ${keyedRows(`unnest(?::${cast})`, m.table, "t0")} ${joins}), ` +
      `${works.map((w, n) => `armature_along_${n} AS (${w.sql})`).join(", ")} ` +
      `SELECT ${[`${withUrls("a.raw", holding)} AS j`, ...ReadPlans.checks(plan)].join(", ")} FROM armature_answer a ORDER BY a.n`;
    const bindings = [ids, ...works.flatMap((w) => w.bindings), ...urlValues(this.urls(opts), holding)] as Knex.RawBinding[];
    const { rows } = await prepared(db.raw(sql, bindings), "generic") as unknown as { rows: Array<Record<string, unknown>> };
    for (const a of along) a.along.ran();
    return rows;
  }

  /** `fetch`; with `keep`, the rows read are left for the next read of them by the same statement in the operation's transaction. */
  private async read(op: Operation, m: ModelDescriptor, ids: RowId[], opts: ReadOptions, filter: FilterPlan | undefined, keep: boolean):
    Promise<Array<Record<string, unknown>>> {
    const { valid, cast } = this.keys(m, ids);
    if (!valid.length) return [];
    const db = op.trx;
    const sharedKey = (plan: ReadPlan) => `${m.key}|${plan.select}|${[...valid].map(String).sort().join(",")}`;
    return this.withPlan(m, opts, async (plan) => {
      // Only an unscoped, unfiltered read is its plan and its ids: those are shared.
      const shared = opts.unscoped && !filter ? sharedKey(plan) : undefined;
      const along = keep && shared !== undefined ? this.readAlong(m, plan) : undefined;
      const qb = db(`${m.table} as t0`).select(db.raw(plan.select), ...ReadPlans.checks(plan).map((c) => db.raw(c)),
        ...(along?.extra ?? []).map((c) => db.raw(`${c.expr} AS ${ident(alongAlias(c.alias))}`)))
        .modify((q) => byIds(q, valid, cast));
      if (!opts.unscoped) scoped(op, m, qb);
      filter?.apply(qb);
      const kept = this.kept.get(db);
      let rows: Array<Record<string, unknown>>;
      if (shared !== undefined && kept?.key === shared) {
        this.kept.delete(db);
        rows = kept.rows;
      } else if (filter?.checks.length) {
        const [result] = await prepared(db.select(
          db.raw("(SELECT coalesce(json_agg(r), '[]'::json) FROM (?) r) AS rows", [qb]),
          ...checkSelects(db, filter),
        ), "generic");
        const errors = filterErrors(filter, {}, result);
        if (errors) throw new ValidationError(errors);
        rows = result.rows;
      } else rows = await prepared(qb, "generic");
      return {
        row: rows[0],
        answer: () => {
          // Kept only from the read that stands (not one whose plan turned out stale).
          if (keep && shared !== undefined) this.keep(db, along ? { key: sharedKey(along.plan), plan: along.plan, rows: rows.map((r) => along.rowOf(r)) } : { key: shared, rows });
          const byId = new Map(rows.map((r) => [String(r.id), plan.render(r, opts.ctx)]));
          return valid.map((id) => byId.get(String(id).toLowerCase()) ?? byId.get(String(id))).filter((x): x is Record<string, unknown> => !!x);
        },
      };
    });
  }

  /**
   * Leaves `rows` for the next read by the statement `key` names; rows made for another plan
   * only while the facts it was sized by still hold (else that read builds a new plan anyway).
   */
  private keep(db: object, kept: { key: string; rows: Array<Record<string, unknown>>; plan?: ReadPlan }): void {
    if (kept.plan && this.plans.learn(kept.plan, kept.rows[0])) return;
    this.kept.set(db, { key: kept.key, rows: kept.rows });
  }

  /**
   * The read anticipated after a write's answer read by `plan`, when it reads otherwise: the
   * columns it needs that `plan` has not (its checks of the facts it was sized by among them),
   * and how to make its row from the answer's.
   */
  private readAlong(m: ModelDescriptor, plan: ReadPlan): { plan: ReadPlan; extra: ReadPlan["columns"]; rowOf: (row: Record<string, unknown>) => Record<string, unknown> } | undefined {
    const next = this.followingReads.map((reads) => reads(m)).find((o) => o !== undefined);
    if (!next) return undefined;
    const following = this.plans.get(m, next.shape, next.version, next.exclude, next.include);
    if (following.select === plan.select) return undefined;
    const same = new Set(plan.columns.map((c) => `${c.alias} ${c.expr}`));
    const checks = following.assumptions.map((a, n) => ({ expr: a.probe, alias: assumptionColumn(n) }));
    const extra = [...following.columns.filter((c) => !same.has(`${c.alias} ${c.expr}`)), ...checks];
    const extraNames = new Set(extra.map((c) => c.alias));
    const names = [...following.columns, ...checks].map((c) => c.alias);
    return {
      plan: following,
      extra,
      rowOf: (row) => Object.fromEntries(names.map((alias) => [alias, row[extraNames.has(alias) ? alongAlias(alias) : alias]])),
    };
  }

  /**
   * A filter plan's verdict on its own, for paths whose statement cannot carry the checks
   * (locking reads, or planning already failed): the errors in request order, or null.
   */
  async filterErrors(op: Operation, filter: FilterPlan, planning: FilterErrors): Promise<FilterErrors | null> {
    const row = filter.checks.length ? (await op.trx.select(...checkSelects(op.trx, filter)))[0] : undefined;
    return filterErrors(filter, planning, row);
  }

  /**
   * Ids among `ids` that exist, the actor may `action` (view, when not given) and pass `where`
   * (a detail route's filters). With `lock`, inside a transaction, the rows are locked (in id
   * order, so writers locking overlapping sets cannot deadlock) until it ends: a concurrent
   * delete either happened before, and the id is missing, or waits.
   */
  async existing(op: Operation, m: ModelDescriptor, ids: string[], opts: ExistingOptions = {}): Promise<string[]> {
    const { valid, cast } = this.keys(m, ids);
    if (!valid.length) return [];
    return (await this.existingQuery(op, m, valid, cast, opts)).map((r: { id: RowId }) => String(r.id));
  }

  /**
   * `existing` with `lock` for a write that presumes (runtime/db/presumed.ts) every one of `ids`
   * is there for it: the lock is sent as a presumption, and nothing is waited for. Where one is
   * missing the write runs again the ordinary way, and `existing` tells which.
   */
  async lockPresumed(op: WriteOperation, m: ModelDescriptor, ids: string[], opts: Omit<ExistingOptions, "lock"> = {}): Promise<void> {
    const { valid, cast } = this.keys(m, ids);
    const locked = this.existingQuery(op, m, valid, cast, { ...opts, lock: true });
    await sendPresumption(op.trx, prepared(op.trx.raw(
      `WITH l AS (?) SELECT armature_presume((SELECT count(*) FROM l) = ${ids.length}, 'the objects written are there for the actor to write')`, [locked]), "generic"));
  }

  private existingQuery(op: Operation, m: ModelDescriptor, valid: string[] | number[], cast: "uuid[]" | "integer[]", opts: ExistingOptions): Knex.QueryBuilder {
    const qb = op.trx(`${m.table} as t0`).select("t0.id").modify((q) => byIds(q, valid, cast));
    scoped(op, m, qb, opts.action);
    opts.where?.(qb);
    if (opts.lock) qb.orderBy("t0.id").forUpdate();
    return qb;
  }

  async create(op: WriteOperation, m: ModelDescriptor, body: unknown, opts: WriteOptions): Promise<string> {
    const ctx = await prepareDraft(this, op, m, body, { ...opts, partial: false }, null);
    ctx.ahead = opts.ahead;
    return String(await this.persist(m, () => this.save(ctx)));
  }

  /**
   * Creates every element of a bulk body or none: all elements are read first, together, so
   * their references are checked in one statement (write/lookups.ts), then written as one
   * set (see `saveSet`) where the model allows it, else one by one. Gives the ids, or throws
   * the errors as a list as long as the body, `{}` for the good elements, as DRF's list
   * serializer reports them. A set the database refuses is rolled back and written again one
   * by one, to find which elements it refused; once one element failed, what was saved is
   * rolled back to a savepoint and the rest are still tried, only to report their errors.
   */
  async createMany(op: WriteOperation, m: ModelDescriptor, bodies: unknown[], opts: Omit<WriteOptions, "partial">): Promise<string[]> {
    const trx = op.trx;
    this.expecting(op, m, "create");
    const drafts = await prepareDrafts(this, op, m, bodies.map((body) => ({ body, id: null })), { ...opts, partial: false });
    // A failed statement aborts the transaction; rolled back to here, the rest can still be tried.
    await this.markSet(op);
    if (drafts.length && this.writesSets(m) && drafts.every((d) => d.status === "fulfilled")) {
      try {
        const ids = (await this.persist(m, () => this.saveSet(drafts.map((d) => (d as PromiseFulfilledResult<WriteContext>).value)))).map(String);
        await this.saved(op, m, ids, "create");
        return ids;
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        await trx.raw(`ROLLBACK TO SAVEPOINT ${SET_SAVEPOINT}`);
      }
    }
    const ids = await this.createOneByOne(trx, drafts);
    await this.saved(op, m, ids, "create");
    return ids;
  }

  /** The elements of a bulk create saved in order, or every element's errors. */
  private async createOneByOne(trx: Knex.Transaction, drafts: Array<PromiseSettledResult<WriteContext>>): Promise<string[]> {
    const errors: FieldErrors[] = [];
    const elementErrors = (err: unknown): FieldErrors => {
      if (err instanceof ValidationError && !Array.isArray(err.errors)) return err.errors;
      throw err;
    };
    let failed = false;
    const ids: string[] = [];
    for (const d of drafts) {
      if (d.status === "rejected") {
        errors.push(elementErrors(d.reason));
        failed = true;
        continue;
      }
      try {
        ids.push(String(await this.persist(d.value.model, () => this.save(d.value, false))));
        errors.push({});
      } catch (err) {
        errors.push(elementErrors(err));
        failed = true;
        await trx.raw(`ROLLBACK TO SAVEPOINT ${SET_SAVEPOINT}`);
      }
    }
    if (failed) throw new ValidationError(errors);
    return ids;
  }

  /** Whether new rows of `m` can be written as one set: no hook of the model looks at rows one at a time. */
  private writesSets(m: ModelDescriptor): boolean {
    return !m.hooks?.beforeSave && !m.hooks?.afterSave;
  }

  /**
   * Whether rows of `m` can be updated as one set: no hook of the model looks at rows one at a
   * time, and no field's check must see the rows updated before it stored (a tree's cycles).
   */
  private updatesSets(m: ModelDescriptor): boolean {
    return !m.hooks?.beforeSave && !m.hooks?.afterSave && !m.fields.some((f) => kindOf(f).updatesAlone?.(f));
  }

  /**
   * Updates the rows of drafts of one model as a set: the kinds' update effects row by row, the
   * model's `beforeSaveSet` hook once for all (the stored rows read in one statement), one
   * statement per shape of change (write/row-sets.ts), then the after-save work, what rows
   * share done once. The write features are the caller's to tell.
   */
  private async saveUpdateSet(drafts: WriteContext[]): Promise<RowId[]> {
    const { db, model: m } = drafts[0];
    const ids = drafts.map((d) => d.id!);
    for (const ctx of drafts) for (const f of m.fields) kindOf(f).onUpdate?.(f, ctx);
    if (m.hooks?.beforeSaveSet) {
      const before = await storedRowsAt(db, m, ids);
      const seen = drafts.map((ctx, n) => new HookValues(m, ctx.row, before[n]));
      await m.hooks.beforeSaveSet(drafts.map((ctx, n) => ({ db, index: this.index, model: m, id: ctx.id, links: ctx.links, check: checkNow, ...seen[n].rows() })));
      for (const s of seen) s.writeBack();
    }
    await updateRows(db, m, drafts.map((d) => ({ id: d.id!, row: d.row })));
    for (const listener of this.writeListeners) listener(m, "update");
    await doAfterSave(db, drafts.map((d) => ({ id: d.id!, work: d.afterSave })));
    return ids;
  }

  /**
   * Creates the rows of drafts of one model as a set: the kinds' create effects row by row
   * (in memory, or reads), then one insert (write/row-sets.ts), then the after-save work
   * with what rows share done once for all of them. The write features are the caller's to
   * tell. Ids in the drafts' order: PostgreSQL gives an insert's rows back in the order it
   * inserted them, as Django's bulk_create relies on.
   */
  private async saveSet(drafts: WriteContext[]): Promise<RowId[]> {
    const { db, model: m } = drafts[0];
    for (const f of m.fields) {
      const kind = kindOf(f);
      if (kind.onCreateSet) await kind.onCreateSet(f, drafts);
      else for (const ctx of drafts) await kind.onCreate?.(f, ctx);
    }
    if (m.hooks?.beforeSaveSet) {
      const seen = drafts.map((ctx) => new HookValues(m, ctx.row, null));
      await m.hooks.beforeSaveSet(drafts.map((ctx, n) => ({ db, index: this.index, model: m, id: null, links: ctx.links, check: checkNow, ...seen[n].rows() })));
      for (const s of seen) s.writeBack();
    }
    const ids = await insertRows(db, m, drafts.map((d) => d.row));
    for (const listener of this.writeListeners) listener(m, "create");
    await doAfterSave(db, drafts.map((d, n) => ({ id: ids[n], work: d.afterSave })));
    return ids;
  }

  async update(op: WriteOperation, m: ModelDescriptor, id: string, body: unknown, opts: WriteOptions): Promise<void> {
    // The stored row the model's hooks will see, read with what the caller sent before (its
    // lock): its body's lookups change nothing it holds.
    const stored = opts.ahead && this.hooksSee(m) ? storedRows(op.trx, m, [id]) : undefined;
    stored?.catch(() => undefined);
    const ctx = await prepareDraft(this, op, m, body, opts, id);
    await opts.after;
    ctx.ahead = opts.ahead;
    await this.persist(m, () => this.save(ctx, true, stored));
  }

  /** Whether the model's hooks see each row saved (HookValues): its save reads the stored row. */
  private hooksSee(m: ModelDescriptor): boolean {
    return !!(m.hooks?.beforeSave || m.hooks?.beforeSaveSet || m.hooks?.afterSave);
  }

  /**
   * Updates rows of `m`, each by its body, all or none, as a bulk update of a list does: every
   * element is read first, together (their references one statement), then written as one set
   * (see `saveUpdateSet`) and the write features told once. Where the model needs its rows one
   * at a time, or an element or the set is refused, the elements are written one by one in
   * order, as before, so that the error is the first failing element's, as in Nautobot's bulk
   * update: a set refused is rolled back first.
   */
  async updateMany(op: WriteOperation, m: ModelDescriptor, changes: Array<{ id: string; body: unknown }>, opts: WriteOptions): Promise<void> {
    const oneByOne = async () => {
      for (const { id, body } of changes) await this.update(op, m, id, body, opts);
    };
    if (changes.length < 2 || !this.updatesSets(m)) return oneByOne();
    this.expecting(op, m, "update");
    const drafts = await prepareDrafts(this, op, m, changes, opts);
    if (!drafts.every((d): d is PromiseFulfilledResult<WriteContext> => d.status === "fulfilled")) return oneByOne();
    const told = op.pending.length;
    await this.markSet(op);
    try {
      const ids = await this.persist(m, () => this.saveUpdateSet(drafts.map((d) => d.value)));
      await this.saved(op, m, ids, "update");
    } catch (err) {
      if (!(err instanceof ValidationError || err instanceof HttpError)) throw err;
      await op.trx.raw(`ROLLBACK TO SAVEPOINT ${SET_SAVEPOINT}`);
      op.pending.splice(told);
      await oneByOne();
    }
  }

  /**
   * An empty write of `m` (a create when `id` is null): a profile that reads request values
   * its own way fills `row` and `afterSave`, then hands the draft to `save`.
   */
  draft(op: WriteOperation, m: ModelDescriptor, id: RowId | null, version = this.index.api.versions.default, owner?: string): WriteContext {
    const db = op.trx;
    return {
      op, db, index: this.index, model: m, id, userId: owner ?? op.actor.userId ?? undefined, version, row: {}, links: {}, afterSave: [], written: new Set(),
      resolve: (target, value, nullable, where, hold) => this.resolve(db, target, value, nullable, where, hold),
    };
  }

  /**
   * Writes a draft: the kinds' create or update effects, the model's beforeSave hook (a
   * refusal is a ValidationError), the row, the work that needed its id, then afterSave.
   * Database errors pass through untranslated, for the profile to map or retry. The write
   * features hear of the row unless the caller tells them of a whole set itself (`observed`).
   * `stored`: the stored row the hooks see, where the caller read it already (with its lock).
   */
  async save(draft: WriteContext | Promise<WriteContext>, observed = true, stored?: Promise<FieldRow[]>): Promise<RowId> {
    const ctx = await draft;
    const { db, model: m } = ctx;
    for (const f of m.fields) {
      const kind = kindOf(f);
      if (ctx.id === null) await kind.onCreate?.(f, ctx); else kind.onUpdate?.(f, ctx);
    }
    const hooks = m.hooks;
    const event = { db, index: this.index, model: m, id: ctx.id, links: ctx.links, check: ctx.ahead ? checkAhead(db) : checkNow };
    // The stored row, read once here for the hooks rather than by each of them; only they need it.
    const seen = this.hooksSee(m)
      ? new HookValues(m, ctx.row, ctx.id === null ? null : (await (stored ?? storedRows(db, m, [ctx.id])))[0] ?? null)
      : undefined;
    if (seen && (hooks?.beforeSave || hooks?.beforeSaveSet)) {
      if (hooks.beforeSave) await hooks.beforeSave({ ...event, ...seen.rows() });
      else await hooks.beforeSaveSet!([{ ...event, ...seen.rows() }]);
      seen.writeBack();
    }
    let id = ctx.id;
    // Sent ahead where its id can be made here (a UUID, not a sequence's next value): what
    // follows (after-save work, an afterSave hook's statements) needs no answer from it, and
    // PostgreSQL runs it before them.
    const ahead = ctx.ahead && (id !== null || !this.index.integerKeys(m));
    const error = (err: unknown) => this.translateDbError(m, err);
    if (ahead && id === null) {
      id = (ctx.row.id ??= randomUUID()) as RowId;
      await sendAhead(db, prepared(db(m.table).insert(ctx.row)), { error });
    } else if (id === null) [{ id }] = await prepared(db(m.table).insert(ctx.row).returning("id"));
    else if (Object.keys(ctx.row).length) {
      const update = db(m.table).where("id", id).update(ctx.row);
      await (ahead ? sendAhead(db, update, { error }) : update);
    }
    for (const listener of this.writeListeners) listener(m, ctx.id === null ? "create" : "update");
    await doAfterSave(db, [{ id: id!, work: ctx.afterSave }]);
    if (seen && hooks?.afterSave) await hooks.afterSave({ ...event, ...seen.rows(), id: id!, created: ctx.id === null });
    if (observed) await this.saved(ctx.op, m, [id!], ctx.id === null ? "create" : "update");
    return id!;
  }

  /** Removes every link other rows hold to `ids`: their foreign keys become null, join rows go. */
  async detach(op: WriteOperation, m: ModelDescriptor, ids: RowId[]): Promise<void> {
    const db = op.trx;
    for (const other of this.index.api.models.filter((x) => !x.view)) {
      for (const f of other.fields) {
        if (f.kind === "fk" && f.target === m.key) await db(other.table).whereIn(f.column, ids).update({ [f.column]: null });
        if (f.kind === "m2m" && f.target === m.key) await db(f.through.table).whereIn(f.through.target, ids).del();
      }
    }
  }

  /** Deletes all of `ids` or, when anything protects one of them, nothing (409). */
  async remove(op: WriteOperation, m: ModelDescriptor, ids: RowId[]): Promise<void> {
    if (!ids.length) return;
    const db = op.trx;
    const { valid, cast } = this.keys(m, ids);
    const blockers: Dependent[] = [];
    for (const dep of this.index.dependents(m)) {
      if (dep.field.onDelete !== "protect") continue;
      const by = dep.field.by;
      const pointed = by ? `(SELECT ${col("x", by)} FROM ${ident(m.table)} x WHERE x.id = ANY(?::${cast}))` : `ANY(?::${cast})`;
      const rows = await db(`${dep.model.table} as t0`)
        .select("t0.id", db.raw(`${this.plans.displayExpr(dep.model, "t0")} AS display`))
        .whereRaw(`${col("t0", dep.field.column)} ${by ? "IN" : "="} ${pointed}`, [valid])
        .whereRaw(`NOT (t0.id = ANY(?::${cast}))`, [dep.model.key === m.key ? valid : []]);
      for (const r of rows as Array<{ id: string; display: string }>) blockers.push({ display: r.display, id: r.id });
    }
    // The rows as stored, read for the hooks when one asks, once.
    let stored: ReturnType<typeof storedRows> | undefined;
    const rows = () => (stored ??= storedRows(db, m, ids));
    if (m.hooks?.protectedBy) blockers.push(...await m.hooks.protectedBy({ db, model: m, ids, rows }));
    if (blockers.length) throw new HttpError(409, { code: "protected", dependents: blockers });
    for (const f of this.features) if (f.watches(m)) await f.deleting?.(op, m, ids);
    // What a cascade takes along goes through the store first where hooks or kinds keep rules
    // or rows for it: the database's own ON DELETE CASCADE would pass them by.
    for (const dep of this.index.dependents(m)) {
      if (dep.field.onDelete !== "cascade" || !this.deleteHooked(dep.model)) continue;
      const taken = await db(dep.model.table).whereRaw(`${col(dep.model.table, dep.field.column)} = ANY(?::${cast})`, [valid])
        .modify((q) => { if (dep.model.key === m.key) q.whereRaw(`NOT (id = ANY(?::${cast}))`, [valid]); })
        .pluck("id");
      await this.remove(op, dep.model, taken);
    }
    for (const dep of this.index.genericDependents(m)) {
      if (dep.field.onDelete !== "cascade") continue;
      const taken = await db(dep.model.table).where(dep.field.typeColumn, m.key)
        .whereRaw(`${col(dep.model.table, dep.field.idColumn)} = ANY(?::${cast})`, [valid]).pluck("id");
      await this.remove(op, dep.model, taken);
    }
    await m.hooks?.beforeDelete?.({ db, model: m, ids, rows });
    for (const f of m.fields) await kindOf(f).onDelete?.(f, db, m, ids);
    const deleted = await this.persist(m, () => db(m.table).whereIn("id", ids).del());
    for (const listener of this.writeListeners) listener(m, "delete");
    // Another request deleted some of them first: this one found nothing to delete (404).
    if (deleted < ids.length) throw notFound();
    await m.hooks?.afterDelete?.({ db, model: m, ids });
  }

  /**
   * Whether deleting rows of `m` runs hooks, field kinds' clean-up (tag assignments) or write
   * features (change records), its own or those of what its deletion cascades to.
   */
  private deleteHooked(m: ModelDescriptor, seen = new Set<string>()): boolean {
    if (m.hooks?.beforeDelete || m.hooks?.afterDelete || m.fields.some((f) => kindOf(f).onDelete) || this.watchedDeletes(m)) return true;
    if (this.index.genericDependents(m).some((d) => d.field.onDelete === "cascade")) return true;
    if (seen.has(m.key)) return false;
    seen.add(m.key);
    return this.index.dependents(m).some((d) => d.field.onDelete === "cascade" && this.deleteHooked(d.model, seen));
  }

  private async persist<T>(m: ModelDescriptor, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw this.translateDbError(m, err);
    }
  }

  /** Database refusals that are the client's fault become 400/409; anything else stays a bug. */
  translateDbError(m: ModelDescriptor, err: unknown): unknown {
    const e = err as { code?: string; detail?: string; column?: string; message?: string };
    if (e.code === "23505") {
      const cols = /Key \(([^)]+)\)=/.exec(e.detail ?? "")?.[1].split(", ").map((c) => c.replace(/"/g, "")) ?? [];
      const fields = cols.map((c) => m.fields.find((f) => storedColumn(f) === c)).filter((f): f is FieldDescriptor => !!f);
      return new ValidationError(duplicateErrors(m, fields));
    }
    // 23001: a RESTRICT key (a status still in use) met by a delete that raced the dependents check.
    if (e.code === "23503" || e.code === "23001") return new HttpError(409, { code: "integrity" });
    if (e.code === "23502") return new ValidationError({ [fieldFor(m, e.column)]: [{ code: "null" }] });
    // Knex prefixes the driver's message with the SQL; the client gets only the reason.
    if (e.code?.startsWith("22")) return new ValidationError({ non_field_errors: [{ code: "invalid_db_value", reason: (e.message ?? "").split(" - ").pop()! }] });
    return err;
  }

  /** The id of the one `targetKey` row an attribute dictionary names (as a related object is written). */
  async idOf(op: Operation, targetKey: string, attributes: Record<string, unknown>): Promise<string> {
    return (await this.resolve(op.trx, targetKey, attributes, false))!;
  }

  /** A related object given as an id or an attribute dictionary → its id; `where` narrows the rows it may be. */
  private async resolve(db: Db, targetKey: string, value: unknown, nullable: boolean, where?: (alias: string) => string, hold = false): Promise<string | null> {
    if (value === null) {
      if (nullable) return null;
      throw new FieldProblem({ code: "null" });
    }
    const target = this.index.model(targetKey);
    const candidates = () => {
      const qb = db(`${target.table} as t0`).select("t0.id");
      if (where) qb.whereRaw(where("t0"));
      return qb;
    };
    const integerKeys = this.index.integerKeys(target);
    const key = integerKeys ? integerKey(value) : typeof value === "string" && isUuid(value) ? canonicalUuid(value) : null;
    if (key !== null) {
      const condition = where?.("t0");
      // A condition binding values of its own cannot share the batch's one binding.
      if (condition?.includes("?")) {
        const one = candidates().where("t0.id", key);
        const found = await (hold ? one.forKeyShare() : one).first();
        if (!found) throw new FieldProblem({ code: "related_not_found_by_id", value });
        if (hold) heldRows(db).add(`${target.table}:${found.id}`);
        return found.id;
      }
      // Held rows are locked in id order, whichever write of the batch asked first.
      const rows = {
        select: `SELECT t0.id::text AS k FROM ${ident(target.table)} t0 WHERE t0.id = ANY(?)${condition ? ` AND (${condition})` : ""}${hold ? " ORDER BY t0.id FOR KEY SHARE" : ""}`,
        cast: integerKeys ? "integer[]" : "uuid[]",
      };
      if (!(await lookupsOf(db).has(rows, key))) throw new FieldProblem({ code: "related_not_found_by_id", value });
      if (hold) heldRows(db).add(`${target.table}:${key}`);
      return key;
    }
    if (isPlainObject(value)) {
      // The fields of the nested form made from the whole object are dropped first, as DRF's
      // writable nested serializer drops them, and the problem shows what is left.
      const params = Object.fromEntries(Object.entries(value).filter(([k]) => {
        const tf = target.nested.includes(k) ? this.index.field(target, k) : undefined;
        return !(tf && kindOf(tf).madeFromObject);
      }));
      const notFoundBy: Problem = { code: "related_not_found_by_attributes", value: params };
      const qb = candidates().limit(2);
      for (const [k, v] of Object.entries(params)) {
        const tf = this.index.field(target, k);
        const column = tf && storedColumn(tf);
        if (!tf || !column) throw new FieldProblem(notFoundBy);
        if (isLink(tf)) {
          let ref: string | null;
          try { ref = await this.resolve(db, tf.target, v, tf.nullable); } catch { throw new FieldProblem(notFoundBy); }
          if (ref === null) qb.whereNull(`t0.${column}`); else qb.where(`t0.${column}`, ref);
        } else if (tf.kind === "id") {
          const id = integerKeys ? integerKey(v) : typeof v === "string" && isUuid(v) ? v : null;
          if (id === null) throw new FieldProblem(notFoundBy);
          qb.where("t0.id", id);
        } else if (v === null) qb.whereNull(`t0.${column}`);
        else if (typeof v === "object") throw new FieldProblem(notFoundBy);
        else if (tf.kind === "scalar" && tf.type === "integer") {
          const n = pythonInt(v);
          if (n === null) throw new FieldProblem(notFoundBy);
          // As bigint, which any integer column compares with through its index, and no safe integer overflows.
          qb.whereRaw(`${col("t0", column)} = ?::bigint`, [n]);
        } else qb.whereRaw(`${col("t0", column)}::text = ?`, [String(v)]);
      }
      const rows = await qb;
      if (rows.length === 0) throw new FieldProblem(notFoundBy);
      if (rows.length > 1) throw new FieldProblem({ code: "related_multiple_match", value: params });
      return rows[0].id;
    }
    throw new FieldProblem({ code: "related_unrecognized", value });
  }
}

/**
 * `v` as Python's int() reads it, where Django looks an integer field up by it: a number
 * truncated, a boolean as 1 or 0, a string of digits (signed, with spaces around and
 * underscores between) as its value; null for anything else, and for a value past what a
 * double holds exactly. Compared as text, "0100" found no VLAN 100, and no index on the column
 * could serve the comparison.
 */
function pythonInt(v: unknown): number | null {
  let n: number;
  if (typeof v === "boolean") n = v ? 1 : 0;
  else if (typeof v === "number") n = Number.isFinite(v) ? Math.trunc(v) : NaN;
  else if (typeof v === "string" && /^\s*[+-]?\d+(_\d+)*\s*$/.test(v)) n = Number(v.trim().replace(/_/g, ""));
  else return null;
  return Number.isSafeInteger(n) ? n + 0 : null;
}

function fieldFor(m: ModelDescriptor, column?: string): string {
  return m.fields.find((f) => storedColumn(f) === column)?.name ?? "non_field_errors";
}
