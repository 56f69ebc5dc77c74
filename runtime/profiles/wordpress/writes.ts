// Reads WordPress-style writes from request parameters: coerces and checks every writable
// field of the model (WordPress order: all parameter errors at once), makes unique slugs,
// resolves linked posts (id, {id} or data, created inline with de-duplication) and terms
// (id, name or slug; missing names created), keeps wall clock and UTC in step, and hands
// the result to the engine's store, which runs the model's hooks and writes rows and links.
// Updates are partial: omitted fields keep their values. Permission checks are the caller's.
// Every check-then-insert (slugs, term names, de-duplication) holds an advisory lock on what
// it checks, so concurrent writes end as some sequential order of them would.
import type { Knex } from "knex";
import type { FieldDescriptor, FkField, M2mField, ModelDescriptor } from "../../descriptor.js";
import type { Catalog, Row } from "./records.js";
import type { Requester } from "./auth.js";
import { formatWall, inRange, validZone, wallToUtc } from "./dates.js";
import { INVALID, invalidParams, missingParams, notOfType, paramMessage, WpError } from "./errors.js";
import { listValue, MAX_ID, positiveInt, type Params } from "./params.js";
import { advisoryLock } from "../../db/locks.js";
import { ValidationError } from "../../errors.js";
import { termKey } from "./write-transaction.js";
import { slugBase, uniqueSlug } from "./slugs.js";
import { ofType, REFUSED, scalarValue, scaleStatus } from "./field-values.js";
import { replaceLinks } from "../../kinds/m2m.js";
import type { WriteContext } from "../../kinds/types.js";
import type { Store } from "../../store.js";
import type { WriteOperation } from "../../operations/index.js";
import { sanitizeTitle as slugify } from "../../text/slugs.js";

type Values = Record<string, unknown>;
type Links = Map<M2mField, number[]>;

const maxLength = (f: FieldDescriptor | undefined): number | undefined => (f?.kind === "scalar" ? f.maxLength : undefined);

/** A write's parameters as read so far: column values, link lists, and refusals in the order met. */
interface Reading {
  values: Values;
  links: Links;
  errors: Record<string, string>;
  /** The JSON type of each parameter refused for its type. */
  types: Record<string, string>;
  bad(name: string, message?: string): void;
}

function reading(): Reading {
  const errors: Record<string, string> = {};
  return { values: {}, links: new Map(), errors, types: {}, bad: (name, message = "Invalid parameter.") => { errors[name] = message; } };
}
export class Writer {
  constructor(
    private readonly cat: Catalog,
    private readonly store: Store,
    private readonly tz: string,
    private readonly userExists: (db: Knex, id: string) => Promise<boolean>,
  ) {}

  /**
   * Creates a record and gives its id. A model with `dedupeOn` fields gives the id of an
   * existing record matching the (valid) parameters instead, as the plugin avoids duplicates.
   */
  async create(op: WriteOperation, m: ModelDescriptor, params: Params, who: Requester): Promise<number> {
    const db = op.trx;
    await this.lockWrites(db, m, [params], true);
    const { values, links } = await this.prepare(op, m, params, who, null);
    const existing = await this.duplicate(db, m, params);
    if (existing !== undefined) return existing;
    return Number(await this.save(this.draft(op, m, null, values, links)));
  }

  async update(op: WriteOperation, m: ModelDescriptor, current: Row, params: Params, who: Requester): Promise<void> {
    await this.lockWrites(op.trx, m, [params], false);
    const { values, links } = await this.prepare(op, m, params, who, current);
    await this.save(this.draft(op, m, current.id, values, links));
  }

  /** Saves through the engine; a refusal (a hook's, or the engine's) becomes WordPress's invalid-parameter error. */
  async save(draft: WriteContext): Promise<number | string> {
    try {
      return await this.store.save(draft);
    } catch (err) {
      if (err instanceof ValidationError && !Array.isArray(err.errors)) {
        throw invalidParams(Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [k, Array.isArray(v) ? v.map(paramMessage).join(" ") : INVALID])));
      }
      throw err;
    }
  }

  private draft(op: WriteOperation, m: ModelDescriptor, id: number | null, values: Values, links: Links): WriteContext {
    const draft = this.store.draft(op, m, id);
    Object.assign(draft.row, values);
    for (const [f, ids] of links) {
      draft.links[f.name] = ids;
      draft.afterSave.push((saved) => replaceLinks(op.trx, f, saved, ids));
    }
    return draft;
  }

  /** Column values and m2m links for a create (`current` null) or an update. */
  private async prepare(op: WriteOperation, m: ModelDescriptor, params: Params, who: Requester, current: Row | null): Promise<{ values: Values; links: Links }> {
    const wp = this.cat.wp(m);
    const r = reading();
    if (!current) {
      const missing = m.fields.filter((f) => f.required && !f.readOnly && (params[f.name] === undefined || params[f.name] === null)).map((f) => f.name);
      if (missing.length) throw missingParams(missing);
    }
    const clock = wp.wallClock;
    const derived = new Set(clock ? [clock.utcStart, clock.utcEnd] : []);
    const zone = this.zone(m, params, current, r);
    for (const f of m.fields) {
      const v = params[f.name];
      if (v === undefined || f.readOnly || derived.has(f.name) || ["id", "url", "display"].includes(f.name)) continue;
      await this.readField(op, m, f, v, who, zone, r);
    }
    if (typeof r.values.author === "string" && !(await this.userExists(op.trx, r.values.author))) r.bad("author");
    if (Object.keys(r.errors).length) throw invalidParams(r.errors, r.types);

    if (clock) this.clock(m, r.values, params, current, zone);
    await this.complete(op.trx, m, r.values, who, current);
    return { values: r.values, links: r.links };
  }

  /** The zone of a wall-clock record: the valid one given, else the record's, else the site's. */
  private zone(m: ModelDescriptor, params: Params, current: Row | null, r: Reading): string {
    const clock = this.cat.wp(m).wallClock;
    const zoneParam = clock ? params[clock.timezone] : undefined;
    const zoneOk = typeof zoneParam === "string" && !!zoneParam && validZone(zoneParam);
    const zone = zoneOk ? zoneParam as string : (current && clock ? current[this.cat.col(m, clock.timezone)] : "") || this.tz;
    if (clock && zoneParam !== undefined && (typeof zoneParam !== "string" || (zoneParam && !validZone(zoneParam)))) r.bad(clock.timezone);
    return zone;
  }

  /** Reads parameter `v` of field `f` into `r`: a value, a link list, or a refusal. */
  private async readField(op: WriteOperation, m: ModelDescriptor, f: FieldDescriptor, v: unknown, who: Requester, zone: string, r: Reading): Promise<void> {
    const wp = this.cat.wp(m);
    const type = f.kind === "scalar" || f.kind === "choice" ? this.cat.argType(m, f.name) : undefined;
    if (type && !ofType(v, type, !!f.nullable, wp.money === f.name)) {
      r.bad(f.name, notOfType(f.name, type));
      r.types[f.name] = type;
      return;
    }
    const text = typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : null;
    switch (f.kind) {
      case "choice":
        if (text === null || !f.choices.some(([c]) => c === text)) r.bad(f.name);
        else r.values[f.column] = scaleStatus(text, who, f.name === "status");
        return;
      case "scalar": {
        const value = scalarValue(wp, f, v, text, { zone, tz: this.tz });
        if (value === REFUSED) r.bad(f.name); else r.values[f.column] = value;
        return;
      }
      case "fk":
      case "m2m":
        try {
          await this.readLink(op, m, f, v, who, r);
        } catch (err) {
          if (err instanceof WpError && err.status === 400 && err.code === "rest_invalid_param") r.bad(f.name, err.message); else throw err;
        }
        return;
      default:
        return;
    }
  }

  /** A link's parameter: a linked post (id, `{id}` or data), or for a list terms or posts. */
  private async readLink(op: WriteOperation, m: ModelDescriptor, f: FkField | M2mField, v: unknown, who: Requester, r: Reading): Promise<void> {
    const target = this.cat.model(f.target);
    if (f.kind === "fk") {
      if (v === "" || v === 0 || v === "0" || v === null) { r.values[f.column] = null; return; }
      const [id] = await this.linked(op, target, f.target === m.key ? [v] : Array.isArray(v) ? v.slice(0, 1) : [v], who, f.name);
      r.values[f.column] = id;
      return;
    }
    if (target.wordpress?.kind === "term") {
      const names = listValue(v);
      if (names === null) { r.bad(f.name); return; }
      r.links.set(f, await this.terms(op, target, names));
      return;
    }
    const list = v === "" ? [] : Array.isArray(v) ? v : [v];
    r.links.set(f, await this.linked(op, target, list, who, f.name));
  }

  /** What every write sets besides its parameters: a unique slug, a post's author, status and modification time. */
  private async complete(db: Knex, m: ModelDescriptor, values: Values, who: Requester, current: Row | null): Promise<void> {
    const wp = this.cat.wp(m);
    const title = wp.titleField ?? "name";
    if (!current || values.slug !== undefined) {
      const base = (values.slug as string | undefined) ?? slugify(String(values[this.cat.col(m, title)] ?? current?.[this.cat.col(m, title)] ?? ""));
      values.slug = await uniqueSlug(db, m, base, current?.id);
    }
    if (wp.kind === "post") {
      if (!current) {
        values.author ??= who.userId || null;
        values.status ??= who.role === "editor" ? "publish" : "draft";
      }
      values.modified = db.fn.now();
    }
  }

  /** Wall-clock rules: all-day spans whole days, the end may not precede the start, UTC follows. */
  private clock(m: ModelDescriptor, values: Values, params: Params, current: Row | null, zone: string): void {
    const c = this.cat.wp(m).wallClock!;
    const col = (n: string) => this.cat.col(m, n);
    const read = (n: string): string | undefined => {
      const v = values[col(n)] ?? current?.[col(n)];
      return v instanceof Date ? `${formatWall(v)}+00` : (v as string | undefined);
    };
    let start = read(c.start), end = read(c.end);
    const allDay = c.allDay ? (values[col(c.allDay)] ?? current?.[col(c.allDay)]) === true : false;
    if (!start || !end) return;
    if (allDay) {
      start = `${start.slice(0, 10)} 00:00:00+00`;
      end = `${end.slice(0, 10)} 23:59:59+00`;
      values[col(c.start)] = start;
      values[col(c.end)] = end;
    }
    if (end.slice(0, 19) < start.slice(0, 19)) throw invalidParams({ [c.end]: "The end date must not be before the start date." });
    if (params[c.start] === undefined && params[c.end] === undefined && params[c.timezone] === undefined && params[c.allDay ?? ""] === undefined && current) return;
    const utcStart = wallToUtc(new Date(`${start.slice(0, 10)}T${start.slice(11, 19)}Z`), zone);
    const utcEnd = wallToUtc(new Date(`${end.slice(0, 10)}T${end.slice(11, 19)}Z`), zone);
    const outside = ([[c.start, utcStart], [c.end, utcEnd]] as const).filter(([, d]) => !inRange(d));
    if (outside.length) throw invalidParams(Object.fromEntries(outside.map(([name]) => [name, "Invalid parameter."])));
    values[col(c.utcStart)] = utcStart.toISOString();
    values[col(c.utcEnd)] = utcEnd.toISOString();
    if (!values[col(c.timezone)] && !current?.[col(c.timezone)]) values[col(c.timezone)] = zone;
  }

  /** Term ids for names, slugs or ids: unknown ids are skipped, unknown names created. */
  private async terms(op: WriteOperation, m: ModelDescriptor, items: string[]): Promise<number[]> {
    const db = op.trx;
    const names = items.filter((item) => !/^\d+$/.test(item));
    const max = maxLength(this.cat.field(m, "name"));
    if (max && names.some((n) => n.length > max)) throw new WpError(400, "rest_invalid_param", "Invalid parameter.");
    // In one order for every request, so two requests naming the same terms cannot deadlock.
    for (const key of [...new Set(names.map(termKey))].sort()) await advisoryLock(db, m.table, key);
    const out: number[] = [];
    for (const item of items) {
      if (/^\d+$/.test(item)) {
        const row = Number(item) <= MAX_ID ? await db(m.table).where("id", Number(item)).first() : undefined;
        if (row) out.push(row.id);
        continue;
      }
      const row = await db(m.table).where("slug", item).orWhereRaw("lower(name) = lower(?)", [item]).first();
      if (row) { out.push(row.id); continue; }
      out.push(Number(await this.save(this.draft(op, m, null, { name: item, slug: await uniqueSlug(db, m, slugify(item)) }, new Map()))));
    }
    return out;
  }

  /** Linked posts given as ids, `{id}` objects or data objects (created, or matched to an identical one). */
  private async linked(op: WriteOperation, m: ModelDescriptor, items: unknown[], who: Requester, param: string): Promise<number[]> {
    const data = items.filter((item): item is Params => !!item && typeof item === "object" && !Array.isArray(item) && !("id" in item));
    await this.lockWrites(op.trx, m, data, true);
    const out: number[] = [];
    for (const item of items) {
      const byId = !!item && typeof item === "object" && !Array.isArray(item) && "id" in item;
      const id = byId ? positiveInt((item as Row).id) : positiveInt(item);
      if (id !== null || byId) {
        if (id === null || !(await op.trx(m.table).where("id", id).first())) throw new WpError(400, "rest_invalid_param", "The provided linked post ID is not valid");
        out.push(id);
        continue;
      }
      if (!item || typeof item !== "object" || Array.isArray(item)) throw new WpError(400, "rest_invalid_param", "Invalid parameter.");
      try {
        out.push(await this.create(op, m, item as Params, who));
      } catch (err) {
        if (err instanceof WpError && err.status === 400) throw new WpError(400, "rest_invalid_param", `The ${this.cat.wp(m).noun} could not be created from the provided data`);
        throw err;
      }
    }
    return out;
  }

  /**
   * Takes, as one sorted batch and before any other lock in `m`'s table, the locks that
   * creates (or updates) of `items` check under: the first given `dedupeOn` value, which
   * creates that could match one another share, and the slug's. Requests writing the same
   * records in different orders (`organizer: [A, B]` and `[B, A]`) then cannot deadlock.
   */
  private async lockWrites(db: Knex, m: ModelDescriptor, items: Params[], creating: boolean): Promise<void> {
    const title = this.cat.wp(m).titleField ?? "name";
    const keys = new Set<string>();
    for (const params of items) {
      const dedupe = creating ? (this.cat.wp(m).dedupeOn ?? []).map((name) => params[name]).find((v) => typeof v === "string" && v.trim()) : undefined;
      if (typeof dedupe === "string") keys.add(`dedupe:${dedupe.trim().toLowerCase()}`);
      const named = params.slug ?? (creating ? params[title] : undefined);
      if (typeof named === "string" || typeof named === "number") keys.add(slugBase(m, slugify(String(named).trim())).key);
    }
    for (const key of [...keys].sort()) await advisoryLock(db, m.table, key);
  }

  /** An untrashed record equal (case-insensitively) to `params` on every given `dedupeOn` field. */
  private async duplicate(db: Knex, m: ModelDescriptor, params: Params): Promise<number | undefined> {
    const q = db(m.table).select("id").whereNot("status", "trash");
    let usable = false;
    for (const name of this.cat.wp(m).dedupeOn ?? []) {
      const v = params[name];
      if (typeof v === "string" && v.trim()) { q.whereRaw(`lower(${this.cat.col(m, name)}) = lower(?)`, [v.trim()]); usable = true; }
    }
    return usable ? (await q.first())?.id : undefined;
  }
}
