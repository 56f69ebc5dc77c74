// Shapes what the engine read into records as the plugin shows them: posts with global ids,
// local/UTC dates and their details, money and image renderers, embedded linked posts and
// terms; terms in the archive shape or the embedded shape. The engine reads a record and
// everything it embeds in one statement (linked models declare their embedded form as their
// nested form); this module only reshapes values. Reads answer with the same records as the
// JSON text PostgreSQL writes (record-text.ts); writes' answers are shaped here, and so is any
// model's whose records have no such text. Also the catalog of the API's models.
import type { Knex } from "knex";
import { ModelIndex } from "../../models.js";
import {
  type ApiDescriptor, type FieldDescriptor, type FkField, type M2mField, type ModelDescriptor, type WpArg, type WpModelDescriptor,
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

/** The API's models as WordPress sees them: the engine's index, plus post-type and taxonomy facts. */
export class Catalog {
  readonly models: ModelDescriptor[];
  readonly index: ModelIndex;

  private readonly createArgs = new Map<string, Record<string, WpArg>>();

  constructor(readonly api: ApiDescriptor, index = new ModelIndex(api)) {
    this.index = index;
    this.models = api.models.filter((m) => m.wordpress);
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

  model(key: string): ModelDescriptor { return this.index.model(key); }
  wp(m: ModelDescriptor): WpModelDescriptor { return m.wordpress!; }
  field(m: ModelDescriptor, name: string): FieldDescriptor | undefined { return this.index.field(m, name); }
  col(m: ModelDescriptor, name: string): string { return this.index.column(m, name); }
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

/** A related record as the engine embeds it: an object with its id, or a bare id past the nesting limit. */
const idOf = (v: unknown): unknown => (v && typeof v === "object" ? (v as Row).id : v);

const byId = (a: Row, b: Row) => Number(a.id) - Number(b.id);

/**
 * Shapes one response's records. Records embedded several times on a page (a venue shared by
 * many events) are shaped once: the same record, the same shape.
 */
export class Shaper {
  private readonly embedded = new Map<string, Record<string, unknown>>();

  constructor(private readonly cat: Catalog, private readonly site: Site) {}

  permalink(m: ModelDescriptor, record: Row): string {
    return `${this.site.origin}/${this.cat.wp(m).noun}/${record.slug}/`;
  }

  /** Posts shaped fully; terms in the embedded shape when `embedded`, else the archive shape. */
  record(m: ModelDescriptor, values: Row, embedded = false): Record<string, unknown> {
    return this.cat.wp(m).kind === "post" ? this.post(m, values) : this.term(m, values, embedded);
  }

  /** A record as another embeds it, shaped once per response. */
  private embed(m: ModelDescriptor, values: Row): Record<string, unknown> {
    const key = `${m.key}:${values.id}`;
    let shaped = this.embedded.get(key);
    if (!shaped) this.embedded.set(key, (shaped = this.record(m, values, true)));
    return shaped;
  }

  private post(m: ModelDescriptor, values: Row): Record<string, unknown> {
    const row = this.plain(m, values);
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
    const embed = new Set(wp.embed ?? []);
    const skip = new Set(["id", "display", "url", "author", "status", "date", "modified", ...(clock ? [clock.utcStart, clock.utcEnd] : [])]);
    for (const f of m.fields) {
      if (skip.has(f.name) || f.writeOnly) continue;
      const v = row[f.name];
      if (clock && (f.name === clock.start || f.name === clock.end)) {
        const w = wall(v)!;
        out[f.name] = formatWall(w);
        out[`${f.name}_details`] = details(w);
        if (f.name === clock.end) {
          for (const [name, local] of [[clock.utcStart, clock.start], [clock.utcEnd, clock.end]]) {
            const u = wall(row[name]) ?? wall(row[local])!;
            out[name] = formatWall(u);
            out[`${name}_details`] = details(u);
          }
        }
        continue;
      }
      if (clock && f.name === clock.timezone) {
        out[f.name] = v ?? "";
        out.timezone_abbr = zoneAbbr(String(v ?? ""), wall(row[clock.utcStart]) ?? new Date());
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
          if (embed.has(f.name)) out[f.name] = v != null ? this.embed(this.cat.model(f.target), v as Row) : [];
          else out[f.name] = idOf(v) ?? 0;
          break;
        case "m2m": {
          // In the order they were linked, which for the plugin is by id.
          const linked = [...(v as Row[])].sort(byId);
          out[f.name] = embed.has(f.name) ? linked.map((o) => this.embed(this.cat.model(f.target), o)) : linked.map(idOf);
          break;
        }
        case "scalar":
          out[f.name] = f.type === "datetime" ? (v ? formatWall(utcToWall(wall(v)!, tz)) : "") : v;
          break;
        default:
          out[f.name] = v;
      }
    }
    return wp.dropEmpty ? this.withoutEmpty(m, out) : out;
  }

  /** A post without its empty values (the plugin's linked posts), false flags kept. */
  private withoutEmpty(m: ModelDescriptor, out: Record<string, unknown>): Record<string, unknown> {
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

  /** The engine's values with choices as their stored value (WordPress shows no labels). */
  private plain(m: ModelDescriptor, values: Row): Row {
    const out: Row = { ...values };
    for (const f of m.fields) if (f.kind === "choice" && out[f.name] && typeof out[f.name] === "object") out[f.name] = (out[f.name] as Row).value;
    return out;
  }

  private term(m: ModelDescriptor, r: Row, embedded: boolean): Record<string, unknown> {
    const wp = this.cat.wp(m);
    const hasParent = !!this.cat.field(m, "parent");
    const base = `${this.site.nsUrl}/${wp.listKey}`;
    const parent = hasParent ? idOf(r.parent) ?? 0 : 0;
    const urls: Record<string, string> = { self: `${base}/${r.id}`, collection: base };
    if (parent) urls.up = `${base}/${parent}`;
    // Every post linking the term counts, through whichever relation links it.
    const count = m.fields.filter((f) => f.kind === "count").reduce((n, f) => n + Number(r[f.name] ?? 0), 0);
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
