// Reads rows of WordPress-style models and renders them as the plugin does: posts with
// global ids, local/UTC dates and their details, money and image renderers, embedded linked
// posts and terms; terms in the archive shape or the embedded shape. Related rows load in
// one query per relation for a whole page (never one per row). Writes nothing.
import type { Knex } from "knex";
import {
  storedColumn, type ApiDescriptor, type FieldDescriptor, type FkField, type M2mField, type ModelDescriptor, type WpArg, type WpModelDescriptor,
} from "../../descriptor.js";
import { details, formatWall, utcToWall, zoneAbbr } from "./dates.js";

export type Row = Record<string, any>;

/** A relation between WordPress models: a single link or a list through a join table. */
export type Link = FkField | M2mField;

/** The column holding the linked row's id: the foreign key, or the join table's target column. */
export function linkedColumn(field: Link): string {
  return field.kind === "m2m" ? field.through.target : field.column;
}

/** What rendering needs about the request: where the site and the namespace live. */
export interface Site {
  origin: string;
  /** `http://host/wp-json/calendar/events/v1` (no trailing slash). */
  nsUrl: string;
  /** Site timezone name. */
  tz: string;
}

export class Catalog {
  readonly models: ModelDescriptor[];
  private readonly byKey = new Map<string, ModelDescriptor>();

  private readonly createArgs = new Map<string, Record<string, WpArg>>();

  constructor(readonly api: ApiDescriptor) {
    this.models = api.models.filter((m) => m.wordpress);
    for (const m of api.models) this.byKey.set(m.key, m);
    // The create endpoint's args declare each writable field's JSON type, as the route table says.
    const ns = `/${api.basePath.replace(/^\/|\/$/g, "")}`;
    for (const m of this.models) {
      const create = api.routes?.find((r) => r.regex === `${ns}/${m.wordpress!.listKey}`)?.endpoints.find((e) => e.methods.includes("POST"));
      this.createArgs.set(m.key, create?.args ?? {});
    }
  }

  /** The JSON type the route table declares for a written field; none for links. */
  argType(m: ModelDescriptor, field: string): string | undefined {
    return this.createArgs.get(m.key)?.[field]?.type;
  }

  model(key: string): ModelDescriptor { return this.byKey.get(key)!; }
  wp(m: ModelDescriptor): WpModelDescriptor { return m.wordpress!; }
  field(m: ModelDescriptor, name: string): FieldDescriptor | undefined { return m.fields.find((f) => f.name === name); }
  col(m: ModelDescriptor, name: string): string { return storedColumn(this.field(m, name)!)!; }
  byListKey(key: string): ModelDescriptor | undefined { return this.models.find((m) => m.wordpress!.listKey === key); }

  /** Relations of other WordPress models pointing at `m`: (model, field) pairs. */
  linksTo(m: ModelDescriptor): Array<{ model: ModelDescriptor; field: Link }> {
    const out: Array<{ model: ModelDescriptor; field: Link }> = [];
    for (const o of this.models) {
      for (const f of o.fields) if ((f.kind === "fk" || f.kind === "m2m") && f.target === m.key && o !== m) out.push({ model: o, field: f });
    }
    return out;
  }

  /** SQL selecting ids of `source` rows linked through `field` to the target id list column. */
  linkPairs(db: Knex, source: ModelDescriptor, field: Link): Knex.QueryBuilder {
    if (field.kind === "m2m") return db(field.through.table).select(`${field.through.source} as source`, `${field.through.target} as target`);
    return db(source.table).select("id as source", `${field.column} as target`).whereNotNull(field.column);
  }
}

const wall = (v: unknown): Date | null => (v instanceof Date ? v : v ? new Date(String(v)) : null);

export class Renderer {
  constructor(private readonly db: Knex, private readonly cat: Catalog, private readonly site: Site) {}

  permalink(m: ModelDescriptor, row: Row): string {
    return `${this.site.origin}/${this.cat.wp(m).noun}/${row.slug}/`;
  }

  /** Rows of `m` by id, in the given order (missing ids skipped). */
  async rows(m: ModelDescriptor, ids: number[]): Promise<Row[]> {
    if (!ids.length) return [];
    const rows: Row[] = await this.db(m.table).whereIn("id", ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter(Boolean) as Row[];
  }

  async posts(m: ModelDescriptor, rows: Row[]): Promise<Record<string, unknown>[]> {
    const wp = this.cat.wp(m);
    const embeds = new Map<string, Map<number, unknown>>();
    const lists = new Map<string, Map<number, unknown[]>>();
    const ids = rows.map((r) => r.id);
    for (const name of wp.embed ?? []) {
      const f = this.cat.field(m, name) as Link;
      const target = this.cat.model(f.target);
      if (f.kind === "fk") {
        const tids = [...new Set(rows.map((r) => r[f.column]).filter((v) => v != null))];
        const rendered = await this.any(target, await this.rows(target, tids), true);
        embeds.set(name, new Map(rendered.map((r) => [r.id as number, r])));
      } else {
        const t = f.through;
        const pairs: Row[] = ids.length ? await this.db(t.table).whereIn(t.source, ids).orderBy([t.source, t.target]) : [];
        const tids = [...new Set(pairs.map((p) => p[t.target]))];
        const rendered = await this.any(target, await this.rows(target, tids), true);
        const byId = new Map(rendered.map((r) => [r.id as number, r]));
        const grouped = new Map<number, unknown[]>();
        for (const p of pairs) {
          const r = byId.get(p[t.target]);
          if (r) (grouped.get(p[t.source]) ?? grouped.set(p[t.source], []).get(p[t.source])!).push(r);
        }
        lists.set(name, grouped);
      }
    }
    return rows.map((row) => this.post(m, row, embeds, lists));
  }

  private post(m: ModelDescriptor, row: Row, embeds: Map<string, Map<number, unknown>>, lists: Map<string, Map<number, unknown[]>>): Record<string, unknown> {
    const wp = this.cat.wp(m);
    const tz = this.site.tz;
    const globalId = `${this.site.origin.replace(/^https?:\/\//, "")}?id=${row.id}`;
    const url = this.permalink(m, row);
    const date = wall(row.date)!;
    const modified = wall(row.modified)!;
    const out: Record<string, unknown> = {
      id: row.id,
      global_id: globalId,
      global_id_lineage: [globalId],
      author: row.author ?? "",
      status: row.status,
      date: formatWall(utcToWall(date, tz)),
      date_utc: formatWall(date),
      modified: formatWall(utcToWall(modified, tz)),
      modified_utc: formatWall(modified),
      url,
    };
    if (!wp.dropEmpty) out.rest_url = `${this.site.nsUrl}/${wp.listKey}/${row.id}`;
    const clock = wp.wallClock;
    const skip = new Set(["id", "display", "url", "author", "status", "date", "modified", ...(clock ? [clock.utcStart, clock.utcEnd] : [])]);
    for (const f of m.fields) {
      if (skip.has(f.name) || f.writeOnly) continue;
      const column = storedColumn(f);
      const v = column ? row[column] : undefined;
      if (clock && (f.name === clock.start || f.name === clock.end)) {
        const w = wall(v)!;
        out[f.name] = formatWall(w);
        out[`${f.name}_details`] = details(w);
        if (f.name === clock.end) {
          for (const [name, col] of [[clock.utcStart, this.cat.col(m, clock.utcStart)], [clock.utcEnd, this.cat.col(m, clock.utcEnd)]]) {
            const u = wall(row[col]) ?? wall(row[this.cat.col(m, name === clock.utcStart ? clock.start : clock.end)])!;
            out[name] = formatWall(u);
            out[`${name}_details`] = details(u);
          }
        }
        continue;
      }
      if (clock && f.name === clock.timezone) {
        out[f.name] = v ?? "";
        out.timezone_abbr = zoneAbbr(String(v ?? ""), wall(row[this.cat.col(m, clock.utcStart)]) ?? new Date());
        continue;
      }
      if (wp.money === f.name) {
        Object.assign(out, money(f.name, String(v ?? "")));
        continue;
      }
      if (wp.images?.includes(f.name)) { out[f.name] = image(String(v ?? "")); continue; }
      if (wp.html?.includes(f.name)) { out[f.name] = autop(String(v ?? "")); continue; }
      if (wp.permalinkFallback?.includes(f.name)) { out[f.name] = v || url; continue; }
      switch (f.kind) {
        case "fk":
          if (embeds.has(f.name)) out[f.name] = v != null ? embeds.get(f.name)!.get(v) ?? [] : [];
          else out[f.name] = v ?? 0;
          break;
        case "m2m":
          out[f.name] = lists.get(f.name)?.get(row.id) ?? [];
          break;
        case "scalar":
          out[f.name] = f.type === "datetime" ? (v ? formatWall(utcToWall(wall(v)!, tz)) : "") : v;
          break;
        default:
          out[f.name] = v;
      }
    }
    if (!wp.dropEmpty) return out;
    const kept: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(out)) {
      if (v === "" || v === null || v === false || v === 0 || (Array.isArray(v) && !v.length && k !== "global_id_lineage")) {
        const f = this.cat.field(m, k);
        if (typeof v !== "boolean" || f?.kind !== "scalar" || f.type !== "boolean") continue;
      }
      kept[k] = v;
    }
    // The plugin appends the global ids after filtering these records, so they come last.
    const { global_id, global_id_lineage, ...rest } = kept;
    return { ...rest, global_id, global_id_lineage };
  }

  /** Posts rendered fully; terms in the embedded shape when `embedded`, else the archive shape. */
  async any(m: ModelDescriptor, rows: Row[], embedded = false): Promise<Record<string, unknown>[]> {
    return this.cat.wp(m).kind === "post" ? this.posts(m, rows) : this.terms(m, rows, embedded);
  }

  /** How many posts use each term, through every relation pointing at the term model. */
  async termCounts(m: ModelDescriptor, ids: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    if (!ids.length) return counts;
    for (const { model, field } of this.cat.linksTo(m)) {
      const target = linkedColumn(field);
      const rows: Row[] = await this.cat.linkPairs(this.db, model, field).clearSelect()
        .select(`${target} as target`).count("* as n").whereIn(target, ids).groupBy(target);
      for (const r of rows) counts.set(r.target, (counts.get(r.target) ?? 0) + Number(r.n));
    }
    return counts;
  }

  async terms(m: ModelDescriptor, rows: Row[], embedded = false): Promise<Record<string, unknown>[]> {
    const wp = this.cat.wp(m);
    const counts = await this.termCounts(m, rows.map((r) => r.id));
    const hasParent = !!this.cat.field(m, "parent");
    const base = `${this.site.nsUrl}/${wp.listKey}`;
    return rows.map((r) => {
      const parent = hasParent ? r[this.cat.col(m, "parent")] ?? 0 : 0;
      const urls: Record<string, string> = { self: `${base}/${r.id}`, collection: base };
      if (parent) urls.up = `${base}/${parent}`;
      const count = counts.get(r.id) ?? 0;
      if (embedded) {
        return {
          id: r.id, name: r.name, slug: r.slug, term_group: 0, term_taxonomy_id: r.id, taxonomy: wp.taxonomy ?? wp.listKey,
          description: r.description, parent, count, filter: "raw", urls,
        };
      }
      return {
        id: r.id, count, description: r.description, name: r.name, slug: r.slug, taxonomy: wp.taxonomy ?? wp.listKey,
        ...(hasParent ? { parent } : {}), meta: [], url: `${this.site.origin}/${wp.noun}/${r.slug}/`, urls,
      };
    });
  }
}

/** `"$10"`, `"20$"`, `"0, 20$, 30$"` → display string and `cost_details`. */
export function money(name: string, stored: string): Record<string, unknown> {
  const values = [...stored.matchAll(/\d+(?:[.,]\d+)?/g)].map((m) => Number(m[0].replace(",", "."))).sort((a, b) => a - b);
  const symbolMatch = /[^\d\s.,–-]+/.exec(stored.replace(/free/i, ""));
  const symbol = symbolMatch?.[0] ?? "";
  const position = !symbol ? "" : stored.indexOf(symbol) < stored.search(/\d/) ? "prefix" : "postfix";
  const fmt = (n: number) => (n === 0 ? "Free" : position === "prefix" ? `${symbol}${n}` : `${n}${symbol}`);
  const display = !values.length ? stored : values.length === 1 ? (values[0] === 0 ? "Free" : stored) : `${fmt(values[0])} – ${fmt(values.at(-1)!)}`;
  return {
    [name]: display,
    [`${name}_details`]: { currency_symbol: symbol, currency_code: "", currency_position: position, values: [...new Set(values)].map(String) },
  };
}

const BLOCK = /^<\/?(?:p|div|h[1-6]|ul|ol|li|dl|table|blockquote|pre|figure|hr|section|article|aside|header|footer|form|address)[\s>/]/i;

/**
 * Stored text as WordPress's `wpautop` shows it: blank-line separated paragraphs wrapped in
 * `<p>`, single line breaks as `<br />`, block-level HTML left alone; empty stays empty.
 */
export function autop(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim().split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean)
    .map((p) => (BLOCK.test(p) ? p : `<p>${p.replace(/\n/g, "<br />\n")}</p>`)).join("\n");
}

/** An image reference as the plugin shows it: `false`, or `{url, id, extension}`. */
export function image(ref: string): false | Record<string, unknown> {
  if (!ref) return false;
  const ext = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(ref)?.[1]?.toLowerCase() ?? "";
  return { url: ref, id: 0, extension: ext };
}
