// Write bodies made into drafts: each body checked against its model's schema, then each field
// it gives taken apart by its kind into the draft's column values and after-save work, every
// problem found reported together. A bulk body's elements are made into drafts together: the
// values of fields written by value (RuntimeFieldKind.byValue) are resolved once for every
// element that gives the same (one lookup of the site a thousand elements name), and taken
// synchronously where their kind can, so the elements hold no suspended write apiece while
// their references are looked up: a thousand elements' seven references had kept 20,000
// async frames alive for the young generation's collector to copy, a fifth of a bulk's time.
import type { ModelDescriptor, FieldDescriptor } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import type { WriteOperation } from "../operations/index.js";
import { ValidationError, type FieldErrors } from "../errors.js";
import { kindOf } from "../kinds/index.js";
import { FieldProblem, isPlainObject, type AfterSave, type RuntimeFieldKind, type WriteContext } from "../kinds/types.js";
import type { WriteValidators } from "./validate.js";

/** What making drafts needs of the store. */
export interface Drafting {
  index: ModelIndex;
  validators: WriteValidators;
  /** Whether keys naming no field are refused (the API's STRICT_WRITE_FIELDS) rather than ignored. */
  strictFields: boolean;
  /** An empty draft of a write of `m` (a create when `id` is null). */
  draft(op: WriteOperation, m: ModelDescriptor, id: string | null, version: string, owner?: string): WriteContext;
}

/** How a draft is asked for: the version its body speaks, PATCH semantics, whose a new row is. */
export interface DraftOptions {
  version: string;
  partial: boolean;
  owner?: string;
}

/** PostgreSQL text cannot hold NUL, so any string with one (keys too) is refused up front. */
function hasNul(v: unknown): boolean {
  if (typeof v === "string") return v.includes("\0");
  if (Array.isArray(v)) return v.some(hasNul);
  if (isPlainObject(v)) return Object.entries(v).some(([k, x]) => k.includes("\0") || hasNul(x));
  return false;
}

/** A field a body gives, to be taken by its kind's write; `queue` is the after-save work it leaves. */
interface Taken {
  f: FieldDescriptor;
  kind: RuntimeFieldKind<FieldDescriptor>;
  value: unknown;
  queue: AfterSave[];
}

/** A draft begun: the body's schema errors found, the fields to take listed. */
interface Begun {
  ctx: WriteContext;
  errors: FieldErrors;
  taken: Taken[];
}

/** Checks a body against its schema and lists the fields its kinds will take; a body that is not an object is refused here. */
function begin(d: Drafting, op: WriteOperation, m: ModelDescriptor, body: unknown, opts: DraftOptions, id: string | null): Begun {
  if (!isPlainObject(body)) {
    throw new ValidationError({ non_field_errors: [{ code: "not_an_object", given: body }] });
  }
  // Keyed by what the client sent: no prototype, so "__proto__" is reported like any unknown key.
  const errors: FieldErrors = Object.create(null);
  // A key that names no field of this version is refused only under STRICT_WRITE_FIELDS;
  // otherwise it is ignored, as DRF ignores it: only the fields below are read from the body.
  if (d.strictFields) {
    const known = new Set(m.fields.filter((f) => d.index.inVersion(f, opts.version)).map((f) => f.name));
    for (const key of Object.keys(body)) {
      if (!known.has(key) && key !== "id") errors[key] = [{ code: "unknown_field" }];
    }
  }
  Object.assign(errors, d.validators.check(m, opts.version, opts.partial ? "patch" : "write", body) ?? {});
  const ctx = d.draft(op, m, id, opts.version, opts.owner);
  const { prefetching, writable } = fieldsOf(d, m, opts.version);
  // Reads the kinds will need, asked for now to share the statement of the write's reference
  // checks (write/lookups.ts). Failures surface where the reads are awaited; unawaited (the
  // write failed first), they are moot.
  for (const f of prefetching) void kindOf(f).prefetch!(f, ctx)?.catch(() => undefined);
  // Only the fields the body gives are taken: a bulk body's thousand elements would otherwise
  // each run, and wait for, a write of every field of the model.
  const taken: Taken[] = [];
  for (const { f, kind } of writable) if (f.name in body && !errors[f.name]) taken.push({ f, kind, value: body[f.name], queue: [] });
  return { ctx, errors, taken };
}

/** The fields of a model that prefetch, and those a body can write, in a version: the same for every body. */
interface ModelFields {
  prefetching: FieldDescriptor[];
  writable: Array<{ f: FieldDescriptor; kind: RuntimeFieldKind<FieldDescriptor> }>;
}

const fieldLists = new WeakMap<ModelDescriptor, Map<string, ModelFields>>();

function fieldsOf(d: Drafting, m: ModelDescriptor, version: string): ModelFields {
  let byVersion = fieldLists.get(m);
  if (!byVersion) fieldLists.set(m, (byVersion = new Map()));
  let fields = byVersion.get(version);
  if (!fields) {
    fields = {
      prefetching: m.fields.filter((f) => kindOf(f).prefetch),
      writable: m.fields.flatMap((f) => {
        const kind = kindOf(f);
        return kind.write && !f.readOnly && d.index.inVersion(f, version) ? [{ f, kind }] : [];
      }),
    };
    byVersion.set(version, fields);
  }
  return fields;
}

/**
 * The draft of a begun body once its fields were taken (`settled`, in the order of `taken`):
 * its after-save work in field order, the fields written noted, or every field's problem.
 * A failure other than a field's problem is thrown as it is.
 */
function finish({ ctx, errors, taken }: Begun, settled: Array<PromiseSettledResult<unknown>>): WriteContext {
  ctx.afterSave = taken.flatMap((t) => t.queue);
  const failure = settled.find((r): r is PromiseRejectedResult => r.status === "rejected" && !(r.reason instanceof FieldProblem));
  if (failure) throw failure.reason;
  settled.forEach((r, n) => {
    if (r.status === "rejected") errors[taken[n].f.name] = (r.reason as FieldProblem).detail ?? [(r.reason as FieldProblem).problem];
    else ctx.written.add(taken[n].f.name);
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return ctx;
}

const NUL_PROBLEM = () => new FieldProblem({ code: "null_characters" });

/**
 * Checks and converts a write body into column values and after-save work; throws
 * ValidationError with every problem. The fields are taken at the same time, so the lookups
 * they make share one statement (write/lookups.ts); their work goes to the queue each field's
 * write was given (kinds keep state keyed by the context itself, so every field sees the same
 * one). No AsyncLocalStorage tells whose work it is: once used, it hooks every promise of the
 * process (a tenth of a bulk create's time).
 */
export async function prepareDraft(d: Drafting, op: WriteOperation, m: ModelDescriptor, body: unknown, opts: DraftOptions, id: string | null): Promise<WriteContext> {
  const begun = begin(d, op, m, body, opts, id);
  const settled = await Promise.allSettled(begun.taken.map(async ({ f, kind, value, queue }) => {
    if (hasNul(value)) throw NUL_PROBLEM();
    await kind.write!(f, value, begun.ctx, queue);
  }));
  return finish(begun, settled);
}

/** A field's write under way, or a value's resolution shared by every draft giving it: its outcome once known. */
interface Pending {
  outcome?: PromiseSettledResult<unknown>;
  settling?: Promise<void>;
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof (v as PromiseLike<unknown> | null)?.then === "function";

/** Runs `start`, settled at once where it is synchronous. */
function pending(start: () => unknown): Pending {
  const r: Pending = {};
  try {
    const value = start();
    if (isThenable(value)) {
      r.settling = Promise.resolve(value).then((v) => { r.outcome = { status: "fulfilled", value: v }; }, (reason) => { r.outcome = { status: "rejected", reason }; });
    } else r.outcome = { status: "fulfilled", value };
  } catch (reason) {
    r.outcome = { status: "rejected", reason };
  }
  return r;
}

/** What tells two written values apart, for sharing their resolution: a string is itself, anything else its JSON with its type. */
const valueKey = (value: unknown): string => (typeof value === "string" ? `s${value}` : `j${JSON.stringify(value)}`);

/**
 * `prepareDraft` of each body of a set (a bulk body's elements, each with the id it updates,
 * null for a create), as settled results in their order. Fields written by value resolve each
 * distinct value once for all the drafts giving it, and apply it to each when every value is
 * known; other fields are written draft by draft, as alone.
 */
export async function prepareDrafts(d: Drafting, op: WriteOperation, m: ModelDescriptor, items: Array<{ body: unknown; id: string | null }>, opts: DraftOptions):
  Promise<Array<PromiseSettledResult<WriteContext>>> {
  const shared = new Map<string, Pending>();
  const waits: Array<Promise<void>> = [];
  const started = (p: Pending) => {
    if (p.settling) waits.push(p.settling);
    return p;
  };
  const begun = items.map(({ body, id }) => {
    let b: Begun;
    try {
      b = begin(d, op, m, body, opts, id);
    } catch (reason) {
      return { status: "rejected", reason } as PromiseRejectedResult;
    }
    const outcomes = b.taken.map(({ f, kind, value, queue }): Pending => {
      if (hasNul(value)) return { outcome: { status: "rejected", reason: NUL_PROBLEM() } };
      const byValue = kind.byValue;
      if (!byValue) return started(pending(() => kind.write!(f, value, b.ctx, queue)));
      const key = byValue.alone?.(f) ? undefined : `${f.name}\u0000${valueKey(value)}`;
      let r = key === undefined ? undefined : shared.get(key);
      if (!r) {
        r = started(pending(() => byValue.resolve(f, value, b.ctx)));
        if (key !== undefined) shared.set(key, r);
      }
      return r;
    });
    return { begun: b, outcomes };
  });
  await Promise.all(waits);
  return begun.map((one): PromiseSettledResult<WriteContext> => {
    if ("status" in one) return one;
    const { begun: b, outcomes } = one;
    const settled = outcomes.map((o, n): PromiseSettledResult<unknown> => {
      const { f, kind, queue } = b.taken[n];
      const outcome = o.outcome!;
      if (outcome.status === "rejected" || !kind.byValue) return outcome;
      try {
        kind.byValue.apply(f, outcome.value, b.ctx, queue);
        return { status: "fulfilled", value: undefined };
      } catch (reason) {
        return { status: "rejected", reason };
      }
    });
    try {
      return { status: "fulfilled", value: finish(b, settled) };
    } catch (reason) {
      return { status: "rejected", reason };
    }
  });
}
