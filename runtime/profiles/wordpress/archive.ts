// Archive (list) parameters of a WordPress-style model planned as the engine's filter plan:
// the WHERE clauses, the order, and the checks only the data can answer (does this term,
// venue or parent exist), which the engine evaluates in the list's own statement. Planning
// is synchronous and asks no database. Post filters come from the model's options and
// relations (wall-clock window, term and linked-post filters, flags, geolocation, reverse
// links); term filters are WordPress's.
import type { Knex } from "knex";
import type { FkField, ModelDescriptor, Ordering } from "../../descriptor.js";
import { firstUnnamed, type FilterCheck, type FilterPlan } from "../../query/filters.js";
import { ident } from "../../query/sql.js";
import { linkedColumn, type Catalog } from "./records.js";
import type { Requester } from "./auth.js";
import { formatWall, parseDate, utcToWall } from "./dates.js";
import { invalidParam, WpError } from "./errors.js";
import { boolParam, idListParam, intParam, listParam, MAX_ID, textParam, toBool, type Params } from "./params.js";

export const STATUSES = ["publish", "future", "draft", "pending", "private", "trash"];

/**
 * A planned archive: the engine's filter plan and order, the parameters to echo in paging
 * links, and the error that stopped planning, if one did (checks planned before it still
 * decide which error the client sees first).
 */
export interface ArchivePlan { filter: FilterPlan; ordering: Ordering[]; echo: Record<string, string>; stopped?: WpError }

type Where = (qb: Knex.QueryBuilder) => void;

/** An archive being planned: clauses, checks and echoed parameters, in the order met. */
class Planning {
  readonly wheres: Where[] = [];
  readonly checks: FilterCheck[] = [];
  readonly order: string[] = [];
  readonly echo: Record<string, string> = {};

  where(w: Where): void { this.wheres.push(w); }

  /**
   * `param` is invalid unless each of `values` names a row of one of `tables` by id (a whole
   * number, as every WordPress id is) or, with `natural`, by that column.
   */
  checkNamed(param: string, tables: string[], values: string[], natural?: string): void {
    if (!this.order.includes(param)) this.order.push(param);
    const check = firstUnnamed(tables.map(ident), values, true, natural);
    this.checks.push({ param, ...check, problem: (value) => ({ code: "filter_invalid_choice", value }) });
  }

  done(ordering: Ordering[], stopped?: WpError): ArchivePlan {
    const wheres = this.wheres;
    // An archive's statement is long and its windows are ranges the ordering index serves in
    // any case: planned once, prepared (see FilterPlan.valueSensitive).
    return { filter: { apply: (qb) => { for (const w of wheres) w(qb); }, checks: this.checks, order: this.order, valueSensitive: false }, ordering, echo: this.echo, stopped };
  }
}

/** Runs `plan`; a parameter error it throws stops planning there and is kept for the caller. */
function planned(p: Planning, plan: () => Ordering[]): ArchivePlan {
  try {
    return p.done(plan());
  } catch (err) {
    if (err instanceof WpError) return p.done([], err);
    throw err;
  }
}

const asc = (field: string): Ordering => ({ field, desc: false });
const desc = (field: string): Ordering => ({ field, desc: true });

/** Which statuses a requester sees in a post archive, given the `status` parameter. */
function statuses(params: Params, who: Requester | null): string[] {
  const asked = listParam(params, "status");
  if (!asked) return who ? STATUSES.filter((s) => s !== "trash") : ["publish"];
  if (!asked.length || asked.some((s) => !STATUSES.includes(s))) throw invalidParam("status");
  if (!who && (asked.length !== 1 || asked[0] !== "publish")) throw invalidParam("status");
  return asked;
}

export class Archive {
  constructor(private readonly db: Knex, private readonly cat: Catalog, private readonly settings: Record<string, unknown>, private readonly tz: string) {}

  /**
   * The ids of rows of `m` named by `values` (ids, or slugs when `bySlug`), as a subquery; a
   * value naming no row makes `param` invalid.
   */
  private named(p: Planning, m: ModelDescriptor, param: string, values: string[], bySlug: boolean): Knex.QueryBuilder {
    if (!bySlug && values.some((v) => !/^\d+$/.test(v))) throw invalidParam(param);
    const ids = values.filter((v) => /^\d+$/.test(v)).map(Number).filter((n) => n <= MAX_ID);
    const slugs = bySlug ? values.filter((v) => !/^\d+$/.test(v)) : [];
    p.checkNamed(param, [m.table], values, bySlug ? "slug" : undefined);
    return this.db(m.table).select("id").where((q) => { q.whereIn("id", ids); if (slugs.length) q.orWhereIn("slug", slugs); });
  }

  /** `param` is invalid unless a row of one of `tables` has id `id`. */
  private mustExist(p: Planning, param: string, tables: string[], id: number): void {
    p.checkNamed(param, tables, [String(id)]);
  }

  posts(m: ModelDescriptor, params: Params, who: Requester | null): ArchivePlan {
    const p = new Planning();
    return planned(p, () => {
      const wp = this.cat.wp(m);
      const visible = statuses(params, who);
      p.where((q) => q.whereIn("t0.status", visible));
      if (params.status !== undefined) p.echo.status = visible.join(",");
      if (wp.hiddenFlag) { const flag = `t0.${this.cat.col(m, wp.hiddenFlag)}`; p.where((q) => q.where(flag, false)); }
      const include = idListParam(params, "include");
      if (include) { p.where((q) => q.whereIn("t0.id", include)); p.echo.include = include.join(","); }

      const clock = wp.wallClock;
      if (clock && !include) {
        const day = (v: unknown, name: string, end: boolean): string => {
          const w = typeof v === "string" || typeof v === "number" ? parseDate(String(v), this.tz) : null;
          if (!w) throw invalidParam(name);
          return `${formatWall(w).slice(0, 10)} ${end ? "23:59:59" : "00:00:00"}`;
        };
        const now = new Date();
        const yesterday = utcToWall(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1, 23, 59)), this.tz);
        const later = new Date(now); later.setUTCMonth(later.getUTCMonth() + 24);
        const start = params.start_date !== undefined ? day(params.start_date, "start_date", false) : `${formatWall(yesterday).slice(0, 10)} 00:00:00`;
        const end = params.end_date !== undefined ? day(params.end_date, "end_date", true) : `${formatWall(utcToWall(later, this.tz)).slice(0, 10)} 23:59:59`;
        const [startCol, endCol] = [`t0.${this.cat.col(m, clock.start)}`, `t0.${this.cat.col(m, clock.end)}`];
        p.where((q) => q.where(startCol, ">=", `${start}+00`).where(endCol, "<=", `${end}+00`));
        p.echo.start_date = start;
        p.echo.end_date = end;
      }
      this.search(p, m, params);

      for (const f of m.fields) {
        if (f.kind === "scalar" && f.type === "boolean" && f.name !== wp.hiddenFlag) {
          const b = boolParam(params, f.name);
          if (b !== undefined) { p.where((q) => q.where(`t0.${f.column}`, b)); p.echo[f.name] = String(b); }
        }
        if (f.kind !== "fk" && f.kind !== "m2m") continue;
        const target = this.cat.model(f.target);
        if (!target.wordpress) continue;
        const values = listParam(params, f.name);
        if (values === undefined) continue;
        if (!values.length) throw invalidParam(f.name);
        const matching = this.named(p, target, f.name, values, target.wordpress.kind === "term");
        if (f.kind === "fk") p.where((q) => q.whereIn(`t0.${f.column}`, matching));
        else {
          const t = f.through;
          p.where((q) => q.whereIn("t0.id", this.db(t.table).select(t.source).whereIn(t.target, matching)));
        }
        p.echo[f.name] = values.join(",");
      }
      this.geoloc(p, m, params);

      if (include) return [asc("date"), asc("id")];
      return [wp.archiveOrder ? asc(wp.archiveOrder) : desc("date"), asc("id")];
    });
  }

  /** geoloc / geoloc_lat+geoloc_lng over the first fk whose target has coordinates. */
  private geoloc(p: Planning, m: ModelDescriptor, params: Params): void {
    const link = m.fields.find((f): f is FkField => f.kind === "fk" && !!this.cat.model(f.target).wordpress?.geo);
    if (!link) return;
    const on = boolParam(params, "geoloc");
    const latRaw = params.geoloc_lat, lngRaw = params.geoloc_lng;
    if (latRaw === undefined && lngRaw === undefined && !on) return;
    const target = this.cat.model(link.target);
    const geo = target.wordpress!.geo!;
    const lat = this.cat.col(target, geo.lat), lng = this.cat.col(target, geo.lng);
    const venues = this.db(target.table).select("id").whereNotNull(lat).whereNotNull(lng).where("status", "publish");
    const column = `t0.${link.column}`;
    if (latRaw !== undefined || lngRaw !== undefined) {
      // Only a number or a numeric string is a coordinate (Number would read [] or "" as 0).
      const coordinate = (v: unknown) => (typeof v === "number" || (typeof v === "string" && v.trim()) ? Number(v) : NaN);
      const la = coordinate(latRaw), ln = coordinate(lngRaw);
      if (latRaw === undefined || lngRaw === undefined || !Number.isFinite(la) || Math.abs(la) > 90) throw invalidParam(latRaw === undefined ? "geoloc_lat" : Number.isFinite(la) && Math.abs(la) <= 90 ? "geoloc_lng" : "geoloc_lat");
      if (!Number.isFinite(ln) || Math.abs(ln) > 180) throw invalidParam("geoloc_lng");
      const km = Number(this.settings.GEOFENCE_RADIUS ?? 25) * (this.settings.GEOFENCE_UNIT === "kms" ? 1 : 1.609344);
      const dLat = (km / 6371) * (180 / Math.PI);
      const dLng = dLat / Math.max(Math.cos((la * Math.PI) / 180), 1e-6);
      venues.whereBetween(lat, [la - dLat, la + dLat]).whereBetween(lng, [ln - dLng, ln + dLng]);
    } else if (on === false) {
      const located = this.db(target.table).select("id").whereNotNull(lat).whereNotNull(lng);
      p.where((q) => q.where((w) => w.whereNull(column).orWhereNotIn(column, located)));
      return;
    }
    p.where((q) => q.whereIn(column, venues));
  }

  private search(p: Planning, m: ModelDescriptor, params: Params): void {
    const s = textParam(params, "search");
    if (s === undefined) return;
    const cols = (this.cat.wp(m).search ?? []).map((n) => this.cat.col(m, n));
    const like = `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    p.where((q) => q.where((w) => { for (const c of cols) w.orWhereILike(`t0.${c}`, like); }));
    p.echo.search = s;
  }

  /** Venue/organizer archives: `search`, `status`, and per linking model `<noun>`, `has_<list>`, `only_with_upcoming`. */
  linked(m: ModelDescriptor, params: Params, who: Requester | null): ArchivePlan {
    const p = new Planning();
    return planned(p, () => {
      const listed = statuses(params, who);
      p.where((q) => q.whereIn("t0.status", listed));
      this.search(p, m, params);
      const visible = who ? STATUSES.filter((s) => s !== "trash") : ["publish"];
      for (const { model: src, field } of this.cat.linksTo(m)) {
        const pairs = () => this.cat.linkPairs(this.db, src, field).as("l");
        const noun = this.cat.wp(src).noun;
        if (params[noun] !== undefined) {
          const id = intParam(params, noun)!;
          this.mustExist(p, noun, [src.table], id);
          p.where((q) => q.whereIn("t0.id", this.db.from(pairs()).select("l.target").where("l.source", id)));
          p.echo[noun] = String(id);
        }
        const hasParam = `has_${this.cat.wp(src).listKey}`;
        if (params[hasParam] !== undefined && params[hasParam] !== "") {
          const want = toBool(params[hasParam]);
          const sub = this.db.from(pairs()).join(`${src.table} as s`, "s.id", "l.source").whereNotIn("s.status", ["draft", "pending", "trash"]).select("l.target");
          p.where((q) => (want === false ? q.whereNotIn("t0.id", sub) : q.whereIn("t0.id", sub)));
          p.echo[hasParam] = String(want !== false);
        }
        const clock = this.cat.wp(src).wallClock;
        if (clock && toBool(params.only_with_upcoming ?? false)) {
          const now = formatWall(utcToWall(new Date(), this.tz));
          const upcoming = this.db.from(pairs()).join(`${src.table} as s`, "s.id", "l.source")
            .whereIn("s.status", visible).where(`s.${this.cat.col(src, clock.start)}`, ">=", `${now}+00`).select("l.target");
          p.where((q) => q.whereIn("t0.id", upcoming));
          p.echo.only_with_upcoming = "true";
        }
      }
      return [desc("date"), desc("id")];
    });
  }

  terms(m: ModelDescriptor, params: Params): ArchivePlan {
    const p = new Planning();
    return planned(p, () => {
      this.search(p, m, params);
      const exclude = listParam(params, "exclude");
      if (exclude) { const named = this.named(p, m, "exclude", exclude, true); p.where((q) => q.whereNotIn("t0.id", named)); }
      const include = listParam(params, "include");
      if (include) { const named = this.named(p, m, "include", include, true); p.where((q) => q.whereIn("t0.id", named)); }
      const slug = textParam(params, "slug");
      if (slug !== undefined) p.where((q) => q.where("t0.slug", slug));
      if (this.cat.field(m, "parent") && params.parent !== undefined) {
        const parent = params.parent === "0" || params.parent === 0 ? 0 : intParam(params, "parent")!;
        const column = `t0.${this.cat.col(m, "parent")}`;
        if (parent) this.mustExist(p, "parent", [m.table], parent);
        p.where((q) => (parent ? q.where(column, parent) : q.whereNull(column)));
      }
      const links = this.cat.linksTo(m);
      for (const name of ["post", ...new Set(links.map((l) => this.cat.wp(l.model).noun))]) {
        if (params[name] === undefined) continue;
        const id = intParam(params, name)!;
        const hits = links.filter((l) => name === "post" || this.cat.wp(l.model).noun === name);
        this.mustExist(p, name, hits.map((l) => l.model.table), id);
        const linkedTerms = this.db.union(hits.map((l) => this.cat.linkPairs(this.db, l.model, l.field).clearSelect().select(linkedColumn(l.field)).where(l.field.kind === "m2m" ? l.field.through.source : "id", id)), true);
        p.where((q) => q.whereIn("t0.id", linkedTerms));
      }
      if (boolParam(params, "hide_empty") ?? true) {
        p.where((q) => q.where((w) => {
          for (const l of links) w.orWhereIn("t0.id", this.cat.linkPairs(this.db, l.model, l.field).clearSelect().select(linkedColumn(l.field)));
        }));
      }
      const order = params.order === undefined ? "asc" : textParam(params, "order")!.toLowerCase() === "desc" ? "desc" : "asc";
      const by = params.orderby === undefined ? "name" : textParam(params, "orderby")!.toLowerCase();
      const field = ["id", "slug", "description", "name"].includes(by) ? by : "name";
      const key = (name: string): Ordering => ({ field: name, desc: order === "desc" });
      return field === "id" ? [key("id")] : [key(field), key("id")];
    });
  }
}
