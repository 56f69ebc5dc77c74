// What a job's `run` is given (define.ts JobContext): its log, and reads and writes through
// the API's engine within the job's transaction, each as a request of the user who ran it
// would be: reads see what the user may view, writes are validated as the API validates them,
// checked against the user's object permissions for the model written (as a request to that
// model is) and recorded, with webhooks, under the job's actor.
import type { Knex } from "knex";
import type { ModelDescriptor } from "../../descriptor.js";
import type { Engine } from "../../engine.js";
import { forbidden, notFound } from "../../errors.js";
import type { WriteOperation } from "../../operations/index.js";
import { FilterCompiler, type FilterPlan } from "../../query/filters.js";
import type { ReadOptions } from "../../store.js";
import { CHANGE_LOG_MODEL, READ_ANY, type ApiObject, type Filters, type JobContext, type Loggable } from "./define.js";
import type { RunLog } from "./logs.js";
import type { LogLevel } from "./records.js";

/** The grouping of the lines a job's `run` logs (Nautobot's `active_test`). */
export const RUN_GROUPING = "run";

export class RunContext implements JobContext {
  /** Whether the job logged a failure: its run then ends `failed`. */
  failed = false;
  /** A time limit the job passed (limits.ts): the next call throws it (the soft one), or every call (the hard one). */
  private expired: { err: Error; once: boolean } | null = null;
  private readonly filters: FilterCompiler;
  private readonly read: ReadOptions;

  readonly db: Knex.Transaction;

  constructor(
    private readonly engine: Engine,
    private readonly op: WriteOperation,
    private readonly log: RunLog,
    private readonly signal: AbortSignal,
    readonly resultId: string,
    readonly user: { id: string | null; username: string },
    readonly commit: boolean,
  ) {
    this.db = op.trx;
    this.filters = new FilterCompiler(engine.index);
    const api = engine.api;
    // The latest version's shape, with relative URLs: there is no request to take a host from.
    this.read = { shape: "full", version: api.versions.supported.at(-1) ?? api.versions.default, include: "all", ctx: { apiUrl: api.basePath } };
  }

  private line(level: LogLevel, objOrMessage: Loggable | string | null | undefined, message?: string): Promise<void> {
    this.live();
    if (level === "failure") this.failed = true;
    // As Nautobot's log_*: a string alone is the message.
    if (typeof objOrMessage === "string" && message === undefined) return this.log.write(level, RUN_GROUPING, objOrMessage);
    return this.log.write(level, RUN_GROUPING, message ?? "", typeof objOrMessage === "string" ? { display: objOrMessage } : objOrMessage);
  }

  log_debug(message: string): Promise<void> { return this.line("default", message); }
  log_info(obj: Loggable | string | null, message?: string): Promise<void> { return this.line("info", obj, message); }
  log_success(obj: Loggable | string | null, message?: string): Promise<void> { return this.line("success", obj, message); }
  log_warning(obj: Loggable | string | null, message?: string): Promise<void> { return this.line("warning", obj, message); }
  log_failure(obj: Loggable | string | null, message?: string): Promise<void> { return this.line("failure", obj, message); }

  /** Refuses to go on once the worker stops or loses the job, or a time limit passed: its transaction is rolled back. */
  private live(): void {
    if (this.signal.aborted) throw new Error("The worker running this job stopped before it ended.");
    const expired = this.expired;
    if (!expired) return;
    if (expired.once) this.expired = null;
    throw expired.err;
  }

  /** Refuses the next call (`once`), or every call from now on, with `err`: a time limit passed. */
  expire(err: Error, once: boolean): void {
    this.expired = { err, once };
  }

  private model(key: string): ModelDescriptor {
    const m = this.engine.index.byKey.get(key === CHANGE_LOG_MODEL ? this.engine.api.changeLog ?? key : key.toLowerCase());
    if (!m) throw new Error(`No model ${key} (give a content type: "<app>.<model>")`);
    return m;
  }

  /**
   * Refuses `action` on `m` when the user holds no such permission, as the API's permission
   * check does; which rows they reach, the operation's scope says. A model the scope opens to
   * anyone (EXEMPT_VIEW_PERMISSIONS) needs none.
   */
  private authorize(m: ModelDescriptor, action: string): void {
    const { permissions } = this.engine;
    const grants = this.op.actor.grants;
    if (permissions && grants && !permissions.holds(grants, m, action) && this.op.scope(m, "t0", action) !== null) throw forbidden();
  }

  /** The filters as the list endpoint of `m` plans them, for a user who may view `m`. */
  private viewable(m: ModelDescriptor, filters: Filters): FilterPlan {
    const params = new Map(Object.entries(filters).map(([k, v]) => [k, [v].flat().map(String)]));
    const { errors, plan } = this.filters.compile(m, params, { strict: true, reserved: new Set() });
    if (Object.keys(errors).length) throw new Error(`Invalid filters for ${m.key}: ${JSON.stringify(errors)}`);
    this.authorize(m, "view");
    return plan;
  }

  async list(model: string, filters: Filters = {}): Promise<ApiObject[]> {
    this.live();
    const m = this.model(model);
    const { results } = await this.engine.store.list(this.op, m, this.viewable(m, filters), { limit: null, offset: 0 }, this.read);
    return results as ApiObject[];
  }

  async get(model: string, idOrFilters: string | Filters): Promise<ApiObject | null> {
    if (typeof idOrFilters !== "string") {
      const found = await this.list(model, idOrFilters);
      if (found.length > 1) throw new Error(`More than one ${model} matches ${JSON.stringify(idOrFilters)}`);
      return found[0] ?? null;
    }
    return (await this.objects(model, [idOrFilters]))[0] ?? null;
  }

  /**
   * The objects with these ids the user may view (any of them, for a receiver's object), in one
   * read: in the order given, those not found left out.
   */
  async objects(model: string, ids: string[], any = false): Promise<ApiObject[]> {
    this.live();
    const m = this.model(model);
    const valid = ids.filter((id) => this.engine.store.isKey(m, id));
    if (!any) this.authorize(m, "view");
    return (await this.engine.store.fetch(this.op, m, valid, { ...this.read, unscoped: any })) as ApiObject[];
  }

  async [READ_ANY](model: string, id: string): Promise<ApiObject | null> {
    return (await this.objects(model, [id], true))[0] ?? null;
  }

  /** A write of `m` as the user's request to it: its rows checked against the user's permissions on `m`. */
  private writing<T>(m: ModelDescriptor, work: (op: WriteOperation) => Promise<T>): Promise<T> {
    this.live();
    return work(this.engine.operations.acting(this.op, { ...this.op.actor, subject: m.key }));
  }

  /** What the job wrote, as it wrote it: whatever the rows the user may view, as the API answers a write. */
  private async shown(m: ModelDescriptor, id: string): Promise<ApiObject> {
    return (await this.engine.store.fetch(this.op, m, [id], { ...this.read, unscoped: true }))[0] as ApiObject;
  }

  /** Locks the object for a change or delete, when the user may `action` it; else not found, as the API answers. */
  private async reach(op: WriteOperation, m: ModelDescriptor, id: string, action: string): Promise<void> {
    this.authorize(m, action);
    if (!(await this.engine.store.existing(op, m, [id], { action, lock: true })).length) throw notFound();
  }

  async create(model: string, body: Record<string, unknown>): Promise<ApiObject> {
    const m = this.model(model);
    const id = await this.writing(m, (op) => this.engine.store.create(op, m, body, { version: this.read.version, partial: false }));
    return this.shown(m, id);
  }

  async update(model: string, id: string, body: Record<string, unknown>): Promise<ApiObject> {
    const m = this.model(model);
    await this.writing(m, async (op) => {
      await this.reach(op, m, id, "change");
      await this.engine.store.update(op, m, id, body, { version: this.read.version, partial: true });
    });
    return this.shown(m, id);
  }

  async delete(model: string, id: string): Promise<void> {
    const m = this.model(model);
    await this.writing(m, async (op) => {
      await this.reach(op, m, id, "delete");
      await this.engine.store.remove(op, m, [id]);
    });
  }
}
