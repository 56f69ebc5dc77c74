// Reads WordPress-style writes from request parameters: coerces and checks every writable
// field of the model (WordPress order: all parameter errors at once), makes unique slugs,
// resolves linked posts (id, {id} or data, created inline with de-duplication) and terms
// (id, name or slug; missing names created), keeps wall clock and UTC in step, and hands
// the result to the engine's store, which runs the model's hooks and writes rows and links.
// Updates are partial: omitted fields keep their values. Permission checks are the caller's.
// Every check-then-insert (slugs, term names, de-duplication) holds an advisory lock on what
// it checks, so concurrent writes end as some sequential order of them would.
import type { Knex } from "knex";
import { storedColumn, type FieldDescriptor, type M2mField, type ModelDescriptor } from "../../descriptor.js";
import type { Catalog, Row } from "./records.js";
import type { Requester } from "./auth.js";
import { formatWall, inRange, parseDate, validZone, wallToUtc } from "./dates.js";
import { INVALID, invalidParam, invalidParams, missingParams, notOfType, paramMessage, WpError } from "./errors.js";
import { listValue, MAX_ID, positiveInt, toBool, type Params } from "./params.js";
import { advisoryLock } from "../../db/locks.js";
import type { Actor, Operations } from "../../operations/index.js";
import { ValidationError } from "../../errors.js";
import { replaceLinks } from "../../kinds/m2m.js";
import type { WriteContext } from "../../kinds/types.js";
import type { Store } from "../../store.js";
import { sanitizeTitle as slugify } from "../../text/slugs.js";

type Values = Record<string, unknown>;
type Links = Map<M2mField, number[]>;

const maxLength = (f: FieldDescriptor | undefined): number | undefined => (f?.kind === "scalar" ? f.maxLength : undefined);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Room a slug keeps for the longest `-N` suffix (`-2147483647`). */
const SUFFIX_ROOM = 11;
/**
 * What a write is run again after, besides the conflicts every operation is retried on: a
 * unique or foreign key violation (a race lost to a concurrent insert or delete; the re-run
 * sees the winner and answers as a sequential request would).
 */
const RACES = ["23505", "23503"];

/**
 * Runs a write as an operation, again when it lost a race (see RACES); a violation that
 * persists becomes the 400 naming the parameter of the offending column.
 */
export async function writeTransaction<T>(operations: Operations, actor: Actor, m: ModelDescriptor, run: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  try {
    return await operations.run(actor, run, { retryOn: RACES });
  } catch (err) {
    const { code, detail } = err as { code?: unknown; detail?: string };
    if (typeof code !== "string" || !RACES.includes(code)) throw err;
    const column = /Key \(([^)]+)\)=/.exec(detail ?? "")?.[1];
    const f = m.fields.find((x) => storedColumn(x) === column || (x.kind === "m2m" && x.through.target === column));
    if (!f) throw err;
    throw invalidParam(f.name);
  }
}

const termKey = (name: string) => `name:${name.trim().toLowerCase()}`;

/** The lock on a term name, taken before checking whether the name is free. */
export function lockTermName(trx: Knex, m: ModelDescriptor, name: string): Promise<void> {
  return advisoryLock(trx, m.table, termKey(name));
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
  async create(db: Knex, m: ModelDescriptor, params: Params, who: Requester): Promise<number> {
    await this.lockWrites(db, m, [params], true);
    const { values, links } = await this.prepare(db, m, params, who, null);
    const existing = await this.duplicate(db, m, params);
    if (existing !== undefined) return existing;
    return Number(await this.save(this.draft(db, m, null, values, links)));
  }

  async update(db: Knex, m: ModelDescriptor, current: Row, params: Params, who: Requester): Promise<void> {
    await this.lockWrites(db, m, [params], false);
    const { values, links } = await this.prepare(db, m, params, who, current);
    await this.save(this.draft(db, m, current.id, values, links));
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

  private draft(db: Knex, m: ModelDescriptor, id: number | null, values: Values, links: Links): WriteContext {
    const draft = this.store.draft(db, m, id);
    Object.assign(draft.row, values);
    for (const [f, ids] of links) {
      draft.links[f.name] = ids;
      draft.afterSave.push((saved) => replaceLinks(db, f, saved, ids));
    }
    return draft;
  }

  /** Column values and m2m links for a create (`current` null) or an update. */
  private async prepare(db: Knex, m: ModelDescriptor, params: Params, who: Requester, current: Row | null): Promise<{ values: Values; links: Links }> {
    const wp = this.cat.wp(m);
    const errors: Record<string, string> = {};
    const types: Record<string, string> = {};
    const values: Values = {};
    const links: Links = new Map();
    const bad = (name: string, message = "Invalid parameter.") => { errors[name] = message; };
    if (!current) {
      const missing = m.fields.filter((f) => f.required && !f.readOnly && (params[f.name] === undefined || params[f.name] === null)).map((f) => f.name);
      if (missing.length) throw missingParams(missing);
    }
    const clock = wp.wallClock;
    const derived = new Set(clock ? [clock.utcStart, clock.utcEnd] : []);
    const zoneParam = clock ? params[clock.timezone] : undefined;
    const zoneOk = typeof zoneParam === "string" && !!zoneParam && validZone(zoneParam);
    const zone = zoneOk ? zoneParam as string : (current && clock ? current[this.cat.col(m, clock.timezone)] : "") || this.tz;
    if (clock && zoneParam !== undefined && (typeof zoneParam !== "string" || (zoneParam && !validZone(zoneParam)))) bad(clock.timezone);

    for (const f of m.fields) {
      const v = params[f.name];
      if (v === undefined || f.readOnly || derived.has(f.name) || ["id", "url", "display"].includes(f.name)) continue;
      const type = f.kind === "scalar" || f.kind === "choice" ? this.cat.argType(m, f.name) : undefined;
      if (type && !ofType(v, type, f, wp.money === f.name)) {
        bad(f.name, notOfType(f.name, type));
        types[f.name] = type;
        continue;
      }
      const text = typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : null;
      switch (f.kind) {
        case "choice":
          if (text === null || !f.choices.some(([c]) => c === text)) bad(f.name);
          else values[f.column] = scaleStatus(text, who, f.name === "status");
          break;
        case "scalar":
          switch (f.type) {
            case "boolean":
              values[f.column] = toBool(v);
              break;
            case "datetime": {
              // Wall-clock fields are stored as read; others in UTC, which must stay in range too.
              const local = !!clock && [clock.start, clock.end].includes(f.name);
              const w = text ? parseDate(text, local ? zone : this.tz) : null;
              const utc = w && !local ? wallToUtc(w, this.tz) : null;
              if (!w || (utc && !inRange(utc))) bad(f.name);
              else values[f.column] = utc ? utc.toISOString() : `${formatWall(w)}+00`;
              break;
            }
            case "float": {
              const n = v === null || (typeof v === "string" && !v.trim()) ? null : Number(v);
              if (n === null ? !f.nullable : (f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max)) bad(f.name);
              else values[f.column] = n;
              break;
            }
            case "uuid":
              if (text && UUID.test(text)) values[f.column] = text; else bad(f.name);
              break;
            default: {
              const s = Array.isArray(v) ? v.map(String).join(", ") : text;
              if (s === null) { bad(f.name); break; }
              if ((f.required || f.blank === false || f.name === "slug") && !s) { bad(f.name); break; }
              if (f.maxLength && s.length > f.maxLength) { bad(f.name); break; }
              if (f.format === "url" && s && !isUrl(s)) { bad(f.name); break; }
              if (wp.images?.includes(f.name) && s && !isUrl(s)) { bad(f.name); break; }
              if (clock && f.name === clock.timezone) { values[f.column] = s; break; }
              values[f.column] = f.name === "slug" ? slugify(s) : s;
            }
          }
          break;
        case "fk": {
          const target = this.cat.model(f.target);
          if (v === "" || v === 0 || v === "0" || v === null) { values[f.column] = null; break; }
          try {
            const [id] = await this.linked(db, target, f.target === m.key ? [v] : Array.isArray(v) ? v.slice(0, 1) : [v], who, f.name);
            values[f.column] = id;
          } catch (err) {
            if (err instanceof WpError && err.status === 400 && err.code === "rest_invalid_param") bad(f.name, err.message); else throw err;
          }
          break;
        }
        case "m2m": {
          const target = this.cat.model(f.target);
          try {
            if (target.wordpress?.kind === "term") {
              const names = listValue(v);
              if (names === null) { bad(f.name); break; }
              links.set(f, await this.terms(db, target, names));
            } else {
              const list = v === "" ? [] : Array.isArray(v) ? v : [v];
              links.set(f, await this.linked(db, target, list, who, f.name));
            }
          } catch (err) {
            if (err instanceof WpError && err.status === 400 && err.code === "rest_invalid_param") bad(f.name, err.message); else throw err;
          }
          break;
        }
        default:
          break;
      }
    }
    if (typeof values.author === "string" && !(await this.userExists(db, values.author))) bad("author");
    if (Object.keys(errors).length) throw invalidParams(errors, types);

    if (clock) this.clock(m, values, params, current, zone);
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
    return { values, links };
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
  private async terms(db: Knex, m: ModelDescriptor, items: string[]): Promise<number[]> {
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
      out.push(Number(await this.save(this.draft(db, m, null, { name: item, slug: await uniqueSlug(db, m, slugify(item)) }, new Map()))));
    }
    return out;
  }

  /** Linked posts given as ids, `{id}` objects or data objects (created, or matched to an identical one). */
  private async linked(db: Knex, m: ModelDescriptor, items: unknown[], who: Requester, param: string): Promise<number[]> {
    const data = items.filter((item): item is Params => !!item && typeof item === "object" && !Array.isArray(item) && !("id" in item));
    await this.lockWrites(db, m, data, true);
    const out: number[] = [];
    for (const item of items) {
      const byId = !!item && typeof item === "object" && !Array.isArray(item) && "id" in item;
      const id = byId ? positiveInt((item as Row).id) : positiveInt(item);
      if (id !== null || byId) {
        if (id === null || !(await db(m.table).where("id", id).first())) throw new WpError(400, "rest_invalid_param", "The provided linked post ID is not valid");
        out.push(id);
        continue;
      }
      if (!item || typeof item !== "object" || Array.isArray(item)) throw new WpError(400, "rest_invalid_param", "Invalid parameter.");
      try {
        out.push(await this.create(db, m, item as Params, who));
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

/** Contributors cannot publish: `publish`/`future` become `pending`. */
function scaleStatus(value: string, who: Requester, isStatus: boolean): string {
  if (!isStatus || who.role === "editor") return value;
  return value === "publish" || value === "future" ? "pending" : value;
}

/**
 * Whether `v` has the JSON type a field's argument declares, with WordPress's coercions of
 * request values: numbers pass as strings, numeric strings as numbers, `""` or null clear a
 * nullable number, and the money field also takes a list of prices.
 */
function ofType(v: unknown, type: string, f: FieldDescriptor, money: boolean): boolean {
  switch (type) {
    case "boolean":
      return toBool(v) !== null;
    case "number":
      return typeof v === "number" || (typeof v === "string" && (!v.trim() || Number.isFinite(Number(v)))) || (v === null && !!f.nullable);
    default:
      return typeof v === "string" || typeof v === "number" || (money && Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number"));
  }
}

function isUrl(s: string): boolean {
  try { const u = new URL(s); return u.protocol === "http:" || u.protocol === "https:"; } catch { return false; }
}

const cutSlug = (s: string, n: number) => s.slice(0, n).replace(/-+$/, "");

/**
 * A wanted slug cut to the slug column (WordPress cuts slugs to 200 characters), the prefix
 * every `-N` variant of it starts with, and the lock key of that prefix without its numeric
 * tail, so `room` and an explicit `room-2` (which `room` may also become) share a lock.
 */
function slugBase(m: ModelDescriptor, wanted: string): { base: string; prefix: string; key: string; max: number } {
  const max = maxLength(m.fields.find((f) => f.name === "slug")) ?? 200;
  const base = cutSlug(wanted, max);
  const prefix = cutSlug(base, max - SUFFIX_ROOM);
  return { base, prefix, key: `slug:${prefix.replace(/(-\d+)+$/, "")}`, max };
}

/** `wanted`, or WordPress's `wanted-2`, `-3`… when taken; under the lock of its prefix. */
async function uniqueSlug(db: Knex, m: ModelDescriptor, wanted: string, except?: number): Promise<string> {
  const { base, prefix, key, max } = slugBase(m, wanted);
  await advisoryLock(db, m.table, key);
  const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const taken = new Set<string>(await db(m.table).pluck("slug")
    .where((w) => w.where("slug", base).orWhere((x) => x.where("slug", "like", like).whereRaw("slug ~ '-[0-9]+$'")))
    .modify((q) => { if (except) q.whereNot("id", except); }));
  const candidate = (i: number) => (i === 1 ? base : `${cutSlug(base, max - String(i).length - 1)}-${i}`);
  for (let i = 1; ; i++) if (!taken.has(candidate(i))) return candidate(i);
}
