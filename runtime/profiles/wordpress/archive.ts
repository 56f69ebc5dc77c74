// Archive (list) queries: turns the list parameters of a WordPress-style model into one
// filtered, counted, paged query. Post filters come from the model's options and relations
// (wall-clock window, term and linked-post filters, flags, geolocation, reverse links);
// term filters are WordPress's. Gives ids and totals; rendering is elsewhere.
import type { Knex } from "knex";
import type { FkField, ModelDescriptor } from "../../descriptor.js";
import { linkedColumn, type Catalog, type Row } from "./records.js";
import type { Requester } from "./auth.js";
import { formatWall, parseDate, utcToWall } from "./dates.js";
import { invalidParam, WpError } from "./errors.js";
import { boolParam, idListParam, intParam, listParam, MAX_ID, textParam, toBool, type Params } from "./params.js";

export const STATUSES = ["publish", "future", "draft", "pending", "private", "trash"];

export interface Paging { page: number; perPage: number }

export interface ArchiveResult { ids: number[]; total: number; echo: Record<string, string> }

export function paging(params: Params, settings: Record<string, unknown>): Paging {
  const bad: string[] = [];
  // A bracketed parameter is an object without a prototype, which Number() cannot convert.
  const num = (v: unknown) => (typeof v === "string" || typeof v === "number" ? Number(v) : NaN);
  const page = params.page === undefined ? 1 : num(params.page);
  const per = params.per_page === undefined ? Number(settings.PER_PAGE ?? 10) : num(params.per_page);
  const ok = (v: unknown, n: number) => n > 0 && /^\s*\d+\s*$/.test(String(v));
  if (params.page !== undefined && !ok(params.page, page)) bad.push("page");
  if (params.per_page !== undefined && !ok(params.per_page, per)) bad.push("per_page");
  if (bad.length) throw new WpError(400, "rest_invalid_param", `Invalid parameter(s): ${bad.join(", ")}`, { params: Object.fromEntries(bad.map((b) => [b, "Invalid parameter."])), details: [] });
  return { page, perPage: Math.min(per, Number(settings.MAX_PER_PAGE ?? 50)) };
}

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

  /** Ids of rows of `m` matching `values` by id or slug; 400 naming `param` when any is unknown. */
  async resolve(m: ModelDescriptor, param: string, values: string[], bySlug: boolean): Promise<number[]> {
    const ids = values.filter((v) => /^\d+$/.test(v)).map(Number).filter((n) => n <= MAX_ID);
    const slugs = bySlug ? values.filter((v) => !/^\d+$/.test(v)) : [];
    if (!bySlug && slugs.length !== values.length - ids.length) throw invalidParam(param);
    if (!bySlug && values.some((v) => !/^\d+$/.test(v))) throw invalidParam(param);
    const rows: Row[] = await this.db(m.table).select("id", bySlug ? "slug" : "id as slug")
      .where((q) => { q.whereIn("id", ids); if (slugs.length) q.orWhereIn("slug", slugs); });
    for (const v of values) if (!rows.some((r) => String(r.id) === v || r.slug === v)) throw invalidParam(param);
    return rows.map((r) => r.id);
  }

  async posts(m: ModelDescriptor, params: Params, who: Requester | null, { page, perPage }: Paging): Promise<ArchiveResult> {
    const wp = this.cat.wp(m);
    const q = this.db(`${m.table} as p`);
    const echo: Record<string, string> = {};
    const visible = statuses(params, who);
    q.whereIn("p.status", visible);
    if (params.status !== undefined) echo.status = visible.join(",");
    if (wp.hiddenFlag) q.where(`p.${this.cat.col(m, wp.hiddenFlag)}`, false);
    const include = idListParam(params, "include");
    if (include) { q.whereIn("p.id", include); echo.include = include.join(","); }

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
      q.where(`p.${this.cat.col(m, clock.start)}`, ">=", `${start}+00`).where(`p.${this.cat.col(m, clock.end)}`, "<=", `${end}+00`);
      echo.start_date = start;
      echo.end_date = end;
    }
    this.search(q, m, params, echo);

    for (const f of m.fields) {
      if (f.kind === "scalar" && f.type === "boolean" && f.name !== wp.hiddenFlag) {
        const b = boolParam(params, f.name);
        if (b !== undefined) { q.where(`p.${f.column}`, b); echo[f.name] = String(b); }
      }
      if (f.kind !== "fk" && f.kind !== "m2m") continue;
      const target = this.cat.model(f.target);
      if (!target.wordpress) continue;
      const values = listParam(params, f.name);
      if (values === undefined) continue;
      if (!values.length) throw invalidParam(f.name);
      const ids = await this.resolve(target, f.name, values, target.wordpress.kind === "term");
      if (f.kind === "fk") q.whereIn(`p.${f.column}`, ids);
      else q.whereIn("p.id", this.db(f.through.table).select(f.through.source).whereIn(f.through.target, ids));
      echo[f.name] = values.join(",");
    }
    await this.geoloc(q, m, params);

    const order = wp.archiveOrder && !include ? [`p.${this.cat.col(m, wp.archiveOrder)}`, "asc"] : include ? ["p.date", "asc"] : ["p.date", "desc"];
    return this.page(q, [{ column: order[0], order: order[1] as "asc" | "desc" }, { column: "p.id", order: "asc" }], page, perPage, echo);
  }

  /** geoloc / geoloc_lat+geoloc_lng over the first fk whose target has coordinates. */
  private async geoloc(q: Knex.QueryBuilder, m: ModelDescriptor, params: Params): Promise<void> {
    const link = m.fields.find((f): f is FkField => f.kind === "fk" && !!this.cat.model(f.target).wordpress?.geo);
    if (!link) return;
    const on = boolParam(params, "geoloc");
    const latRaw = params.geoloc_lat, lngRaw = params.geoloc_lng;
    if (latRaw === undefined && lngRaw === undefined && !on) return;
    const target = this.cat.model(link.target);
    const geo = target.wordpress!.geo!;
    const lat = this.cat.col(target, geo.lat), lng = this.cat.col(target, geo.lng);
    const venues = this.db(target.table).select("id").whereNotNull(lat).whereNotNull(lng).where("status", "publish");
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
      q.where((w) => w.whereNull(`p.${link.column}`).orWhereNotIn(`p.${link.column}`, this.db(target.table).select("id").whereNotNull(lat).whereNotNull(lng)));
      return;
    }
    q.whereIn(`p.${link.column}`, venues);
  }

  private search(q: Knex.QueryBuilder, m: ModelDescriptor, params: Params, echo: Record<string, string>): void {
    const s = textParam(params, "search");
    if (s === undefined) return;
    const cols = (this.cat.wp(m).search ?? []).map((n) => this.cat.col(m, n));
    const like = `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q.where((w) => { for (const c of cols) w.orWhereILike(`p.${c}`, like); });
    echo.search = s;
  }

  /** Venue/organizer archives: `search`, `status`, and per linking model `<noun>`, `has_<list>`, `only_with_upcoming`. */
  async linked(m: ModelDescriptor, params: Params, who: Requester | null, { page, perPage }: Paging): Promise<ArchiveResult> {
    const q = this.db(`${m.table} as p`);
    const echo: Record<string, string> = {};
    q.whereIn("p.status", statuses(params, who));
    this.search(q, m, params, echo);
    const visible = who ? STATUSES.filter((s) => s !== "trash") : ["publish"];
    for (const { model: src, field } of this.cat.linksTo(m)) {
      const pairs = () => this.cat.linkPairs(this.db, src, field).as("l");
      const noun = this.cat.wp(src).noun;
      if (params[noun] !== undefined) {
        const id = intParam(params, noun)!;
        if (!(await this.db(src.table).where("id", id).first())) throw invalidParam(noun);
        q.whereIn("p.id", this.db.from(pairs()).select("l.target").where("l.source", id));
        echo[noun] = String(id);
      }
      const hasParam = `has_${this.cat.wp(src).listKey}`;
      if (params[hasParam] !== undefined && params[hasParam] !== "") {
        const want = toBool(params[hasParam]);
        const sub = this.db.from(pairs()).join(`${src.table} as s`, "s.id", "l.source").whereNotIn("s.status", ["draft", "pending", "trash"]).select("l.target");
        if (want === false) q.whereNotIn("p.id", sub); else q.whereIn("p.id", sub);
        echo[hasParam] = String(want !== false);
      }
      const clock = this.cat.wp(src).wallClock;
      if (clock && toBool(params.only_with_upcoming ?? false)) {
        const now = formatWall(utcToWall(new Date(), this.tz));
        q.whereIn("p.id", this.db.from(pairs()).join(`${src.table} as s`, "s.id", "l.source")
          .whereIn("s.status", visible).where(`s.${this.cat.col(src, clock.start)}`, ">=", `${now}+00`).select("l.target"));
        echo.only_with_upcoming = "true";
      }
    }
    return this.page(q, [{ column: "p.date", order: "desc" }, { column: "p.id", order: "desc" }], page, perPage, echo);
  }

  async terms(m: ModelDescriptor, params: Params, { page, perPage }: Paging): Promise<ArchiveResult> {
    const q = this.db(`${m.table} as p`);
    this.search(q, m, params, {});
    const exclude = listParam(params, "exclude");
    if (exclude) q.whereNotIn("p.id", await this.resolve(m, "exclude", exclude, true));
    const include = listParam(params, "include");
    if (include) q.whereIn("p.id", await this.resolve(m, "include", include, true));
    const slug = textParam(params, "slug");
    if (slug !== undefined) q.where("p.slug", slug);
    if (this.cat.field(m, "parent") && params.parent !== undefined) {
      const parent = params.parent === "0" || params.parent === 0 ? 0 : intParam(params, "parent")!;
      if (parent && !(await this.db(m.table).where("id", parent).first())) throw invalidParam("parent");
      if (parent) q.where(`p.${this.cat.col(m, "parent")}`, parent); else q.whereNull(`p.${this.cat.col(m, "parent")}`);
    }
    const links = this.cat.linksTo(m);
    for (const name of ["post", ...new Set(links.map((l) => this.cat.wp(l.model).noun))]) {
      if (params[name] === undefined) continue;
      const id = intParam(params, name)!;
      const hits = links.filter((l) => name === "post" || this.cat.wp(l.model).noun === name);
      if (!(await Promise.all(hits.map((l) => this.db(l.model.table).where("id", id).first()))).some(Boolean)) throw invalidParam(name);
      q.whereIn("p.id", this.db.union(hits.map((l) => this.cat.linkPairs(this.db, l.model, l.field).clearSelect().select(linkedColumn(l.field)).where(l.field.kind === "m2m" ? l.field.through.source : "id", id)), true));
    }
    if (boolParam(params, "hide_empty") ?? true) {
      q.where((w) => {
        for (const l of links) w.orWhereIn("p.id", this.cat.linkPairs(this.db, l.model, l.field).clearSelect().select(linkedColumn(l.field)));
      });
    }
    const order = params.order === undefined ? "asc" : textParam(params, "order")!.toLowerCase() === "desc" ? "desc" : "asc";
    const by = params.orderby === undefined ? "name" : textParam(params, "orderby")!.toLowerCase();
    const column = ["id", "slug", "description", "name"].includes(by) ? by : "name";
    return this.page(q, [{ column: `p.${column}`, order }, { column: "p.id", order }], page, perPage, {});
  }

  private async page(q: Knex.QueryBuilder, order: Array<{ column: string; order: "asc" | "desc" }>, page: number, perPage: number, echo: Record<string, string>): Promise<ArchiveResult> {
    const [{ n }] = await q.clone().clearSelect().count("* as n");
    const rows: Row[] = await q.select("p.id").orderBy(order).limit(perPage).offset(Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER));
    return { ids: rows.map((r) => r.id), total: Number(n), echo };
  }
}
