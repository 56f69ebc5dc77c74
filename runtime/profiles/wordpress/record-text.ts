// The JSON text of the API's records as records.ts shapes them (an archive's and a record
// route's), written by PostgreSQL: SQL over the row aliased `t0`, what a post embeds as
// sub-selects of the same statement. The site's URL and host are the statement's parameters
// (one prepared statement for every host, and no pass over the answer to put them in); a
// zone's short name, which only Intl words as the JavaScript path does, is left as a marker
// that `finishedRecords` words.
import { isLink, storedColumn, type FieldDescriptor, type ModelDescriptor } from "../../descriptor.js";
import type { ReadPlans } from "../../query/read-plan.js";
import { arrayJson, concatenated, scalarJson } from "../../query/json-text.js";
import { col, ident, literal } from "../../query/sql.js";
import { linkedRows } from "../../kinds/related.js";
import type { RowText } from "../../store.js";
import { zoneAbbr } from "./dates.js";
import type { Catalog, Site } from "./records.js";
import { autopJson, blankText, imageJson, moneyMembers, wallIn, wallMembers, wallWithDetails } from "./value-text.js";

/** Where the statement's parameters go while it is built: the site's URL, and `host?id=` (a global id's start), each as JSON string content. */
const SITE = "\u0001";
const GLOBAL_ID = "\u0005";
const PARAMETER = /[\u0001\u0005]/;
/** Around a zone's name and an instant (milliseconds), which the server words as `zoneAbbr` does. */
const ZONE_START = "\u0006";
const ZONE_AT = "\u0007";
const ZONE = new RegExp(`${ZONE_START}([^${ZONE_START}${ZONE_AT}]*)${ZONE_AT}(-?\\d+)${ZONE_START}`, "g");

/** How deep posts embed others, as the engine nests them (read-plan.ts MAX_NESTING) before ids. */
const MAX_EMBEDDING = 3;

/** One member of a record's object: a key and its value's JSON text (dropped where `empty` holds, for posts without empty values), or members written together. */
type Member = { key: string; json: string; empty?: string } | { members: string };

/** A string's JSON text without its quotes. */
const inner = (expr: string): string => `left(right(to_json(${expr})::text, -1), -1)`;

/** JavaScript's text of a value inside a JSON string. */
const inString = (s: string): string => JSON.stringify(s).slice(1, -1);

/** The JSON text of the site's URL followed by `path` (JSON string content) and `expr`'s text, as one string. */
const siteString = (path: string, expr?: string): string => `'"' || ${SITE} || ${literal(inString(path))}${expr ? ` || ${expr}` : ""} || '"'`;

/** A model's records' JSON text, and the values of its parameters for a request. */
export class RecordText implements RowText {
  readonly sql: string;
  private readonly parameters: string[] = [];

  constructor(readonly key: string, built: string) {
    this.sql = built.replace(new RegExp(PARAMETER, "g"), (p) => {
      this.parameters.push(p);
      return "?::text";
    });
  }

  /** The values of its parameters (ReadOptions.textValues) for a request to `site`. */
  values(site: Site): string[] {
    const globalId = inString(`${site.origin.replace(/^https?:\/\//, "")}?id=`);
    const url = inString(site.origin);
    return this.parameters.map((p) => (p === SITE ? url : globalId));
  }
}

export class RecordTexts {
  private readonly texts = new Map<string, RecordText | null>();

  /** `nsPath`: the namespace's path below the site (`/wp-json/calendar/events/v1`). */
  constructor(private readonly cat: Catalog, private readonly plans: ReadPlans, private readonly tz: string, private readonly nsPath: string) {}

  /** The JSON text of `m`'s records as its archive and record routes show them; undefined where a value has none. */
  of(m: ModelDescriptor): RecordText | undefined {
    let text = this.texts.get(m.key);
    if (text === undefined) {
      const sql = this.record(m, "t0", 0, false);
      this.texts.set(m.key, (text = sql === undefined ? null : new RecordText(`wordpress ${m.key}`, sql)));
    }
    return text ?? undefined;
  }

  private record(m: ModelDescriptor, alias: string, depth: number, embedded: boolean): string | undefined {
    return this.cat.wp(m).kind === "post" ? this.post(m, alias, depth) : this.term(m, alias, embedded);
  }

  /** A field's column on the row `alias`. */
  private column(m: ModelDescriptor, name: string, alias: string): string | undefined {
    const f = this.cat.field(m, name);
    const c = f && storedColumn(f);
    return c && col(alias, c);
  }

  private post(m: ModelDescriptor, a: string, depth: number): string | undefined {
    const wp = this.cat.wp(m);
    const status = this.cat.field(m, "status");
    const [date, modified, slug] = ["date", "modified", "slug"].map((n) => this.column(m, n, a));
    if (!status || !date || !modified || !slug) return undefined;
    const statusJson = this.valueJson(m, status, a);
    if (statusJson === undefined) return undefined;
    const id = `${a}.id`;
    const globalId = `'"' || ${GLOBAL_ID} || ${id}::text || '"'`;
    const url = siteString(`/${wp.noun}/`, `coalesce(${inner(slug)}, 'null') || '/'`);
    const author = this.column(m, "author", a);
    const ids: Member[] = [{ key: "global_id", json: globalId }, { key: "global_id_lineage", json: `'[' || ${globalId} || ']'` }];
    const members: Member[] = [
      ...(wp.dropEmpty ? [] : ids),
      author ? { key: "author", json: `coalesce(to_json(${author})::text, '""')`, empty: `${author} IS NULL` } : { key: "author", json: `'""'`, empty: "true" },
      { key: "status", json: statusJson.json, empty: statusJson.empty },
      ...this.localAndUtc("date", date),
      ...this.localAndUtc("modified", modified),
      { key: "url", json: url },
    ];
    if (!wp.dropEmpty) members.push({ key: "rest_url", json: siteString(`${this.nsPath}/${wp.listKey}/`, `${id}::text`) });
    const clock = wp.wallClock;
    const embed = new Set(wp.embed ?? []);
    const skip = new Set(["id", "display", "url", "author", "status", "date", "modified", ...(clock ? [clock.utcStart, clock.utcEnd] : [])]);
    for (const f of m.fields) {
      if (skip.has(f.name) || f.writeOnly) continue;
      const c = storedColumn(f);
      const at = c && col(a, c);
      if (clock && (f.name === clock.start || f.name === clock.end)) {
        if (!at) return undefined;
        members.push({ members: wallWithDetails(f.name, `(${at} AT TIME ZONE 'UTC')`) });
        if (f.name === clock.end) {
          for (const [name, local] of [[clock.utcStart, clock.start], [clock.utcEnd, clock.end]]) {
            const [utc, wall] = [this.column(m, name, a), this.column(m, local, a)];
            if (!utc || !wall) return undefined;
            members.push({ members: wallWithDetails(name, `(coalesce(${utc}, ${wall}) AT TIME ZONE 'UTC')`) });
          }
        }
        continue;
      }
      if (clock && f.name === clock.timezone) {
        const start = this.column(m, clock.utcStart, a);
        if (!at || !start) return undefined;
        const empty = `coalesce(${at}, '') = ''`;
        members.push({ key: f.name, json: `coalesce(to_json(${at})::text, '""')`, empty }, { key: "timezone_abbr", json: zoneJson(at, start), empty });
        continue;
      }
      if (wp.money === f.name) {
        // `cost` alone would be dropped where empty, its details kept: not written here.
        if (!at || wp.dropEmpty) return undefined;
        members.push({ members: moneyMembers(f.name, at) });
        continue;
      }
      const text = at && this.shaped(m, f, at, url);
      if (text) { members.push({ key: f.name, ...text }); continue; }
      const value = f.kind === "fk" || f.kind === "m2m" ? this.link(f, a, depth, embed.has(f.name)) : this.valueJson(m, f, a);
      if (value === undefined) return undefined;
      members.push({ key: f.name, ...value });
    }
    if (wp.dropEmpty) members.push(...ids);
    return objectText([{ key: "id", json: scalarJson(id) }, ...members], !!wp.dropEmpty);
  }

  /** `<name>` in the site's zone and `<name>_utc` of the instant `at`: one `to_char` where the site keeps UTC. */
  private localAndUtc(name: string, at: string): Member[] {
    const [local, utc] = [wallIn(at, this.tz), `(${at} AT TIME ZONE 'UTC')`];
    if (local === utc) return [{ members: wallMembers([name, `${name}_utc`], utc) }];
    return [{ members: wallMembers([name], local) }, { members: wallMembers([`${name}_utc`], utc) }];
  }

  /** The values the profile shapes from a stored column: images, paragraphs, a permalink in place of an empty value. */
  private shaped(m: ModelDescriptor, f: FieldDescriptor, at: string, url: string): { json: string; empty?: string } | undefined {
    const wp = this.cat.wp(m);
    if (wp.images?.includes(f.name)) return { json: imageJson(at), empty: `coalesce(${at}, '') = ''` };
    if (wp.html?.includes(f.name)) return { json: autopJson(at), empty: blankText(at) };
    if (wp.permalinkFallback?.includes(f.name)) return { json: `CASE WHEN coalesce(${at}, '') = '' THEN ${url} ELSE to_json(${at})::text END` };
    return undefined;
  }

  /** A link's value: the linked records embedded (a missing one `[]`), or their ids (a missing one 0). */
  private link(f: FieldDescriptor & { kind: "fk" | "m2m" }, a: string, depth: number, embedded: boolean): { json: string; empty: string } | undefined {
    const target = this.cat.model(f.target);
    const e = `e${depth + 1}`;
    const record = embedded ? (depth + 1 < MAX_EMBEDDING ? this.record(target, e, depth + 1, true) : undefined) : `to_json(${e}.id)::text`;
    if (record === undefined) return undefined;
    if (f.kind === "fk") {
      const key = col(a, f.column);
      const json = embedded ? `coalesce((SELECT ${record} FROM ${ident(target.table)} ${e} WHERE ${e}.id = ${key}), '[]')` : `coalesce(to_json(${key})::text, '0')`;
      return { json, empty: `${key} IS NULL` };
    }
    const t = f.through;
    const links = `${ident(t.table)} j WHERE ${col("j", t.source)} = ${a}.id`;
    // In the order they were linked, which for the plugin is by id.
    const json = embedded
      ? arrayJson(record, linkedRows(target, t.table, t.target, `${col("j", t.source)} = ${a}.id`)(e), `${e}.id`)
      : arrayJson(`to_json(${col("j", t.target)})::text`, `FROM ${links}`, col("j", t.target));
    return { json, empty: `NOT EXISTS (SELECT 1 FROM ${links})` };
  }

  /** A field's value as the engine gives it, choices as their stored value; undefined where its kind has no JSON text. */
  private valueJson(m: ModelDescriptor, f: FieldDescriptor, a: string): { json: string; empty: string } | undefined {
    const c = storedColumn(f);
    const at = c && col(a, c);
    if (f.kind === "choice" && at) {
      const empty = `${at} IS NULL OR ${at}::text = ''`;
      return { json: `CASE WHEN ${empty} THEN 'null' ELSE to_json(${at}::text)::text END`, empty };
    }
    if (f.kind === "scalar" && at && f.type === "datetime") {
      return { json: `CASE WHEN ${at} IS NULL THEN '""' ELSE '"' || to_char(${wallIn(at, this.tz)}, 'YYYY-MM-DD HH24:MI:SS') || '"' END`, empty: `${at} IS NULL` };
    }
    const json = this.plans.fieldSql(m, f, a).json;
    // A kind writing a URL marker of its own (json-text.ts) would be taken for a parameter here.
    if (json === undefined || isLink(f) || PARAMETER.test(json)) return undefined;
    if (f.kind !== "scalar" || !at || f.type === "json") return { json, empty: `(${json}) IN ('""', 'null', 'false', '0', '[]')` };
    // A flag's false is kept; numbers are empty at 0.
    if (f.type === "boolean") return { json, empty: `${at} IS NULL` };
    if (f.type === "integer" || f.type === "float") return { json, empty: `${at} IS NULL OR ${at} = 0` };
    return { json, empty: `${at} IS NULL OR ${at}::text = ''` };
  }

  private term(m: ModelDescriptor, a: string, embedded: boolean): string | undefined {
    const wp = this.cat.wp(m);
    const parentColumn = this.column(m, "parent", a);
    const parent = parentColumn ? `coalesce(to_json(${parentColumn})::text, '0')` : "'0'";
    const base = `${this.nsPath}/${wp.listKey}`;
    const self = siteString(`${base}/`, `${a}.id::text`);
    const up = parentColumn ? `CASE WHEN ${parentColumn} IS NULL THEN '' ELSE ',"up":' || ${siteString(`${base}/`, `${parentColumn}::text`)} END` : "''";
    const urls = `concat('{"self":', ${self}, ',"collection":', ${siteString(base)}, ${up}, '}')`;
    // Every post linking the term counts, through whichever relation links it.
    const counts = m.fields.filter((f) => f.kind === "count").map((f) => this.plans.fieldSql(m, f, a).read);
    if (counts.some((r) => r === undefined)) return undefined;
    const count = `(${["0", ...counts.map((r) => `coalesce(${r}, 0)`)].join(" + ")})::text`;
    const values = new Map<string, string>();
    for (const name of ["name", "slug", "description"]) {
      const f = this.cat.field(m, name);
      if (!f) continue;
      const value = this.valueJson(m, f, a);
      if (!value) return undefined;
      values.set(name, value.json);
    }
    const field = (name: string): Member[] => (values.has(name) ? [{ key: name, json: values.get(name)! }] : []);
    const id = scalarJson(`${a}.id`);
    const taxonomy = { key: "taxonomy", json: literal(JSON.stringify(wp.taxonomy ?? wp.listKey)) };
    if (embedded) {
      return objectText([
        { key: "id", json: id }, ...field("name"), ...field("slug"), { key: "term_group", json: "'0'" }, { key: "term_taxonomy_id", json: id },
        taxonomy, ...field("description"), { key: "parent", json: parent }, { key: "count", json: count }, { key: "filter", json: `'"raw"'` }, { key: "urls", json: urls },
      ], false);
    }
    const slug = this.column(m, "slug", a);
    return objectText([
      { key: "id", json: id }, { key: "count", json: count }, ...field("description"), ...field("name"), ...field("slug"), taxonomy,
      ...(parentColumn ? [{ key: "parent", json: parent }] : []), { key: "meta", json: "'[]'" },
      { key: "url", json: siteString(`/${wp.noun}/`, `${slug ? `coalesce(${inner(slug)}, 'undefined')` : "'undefined'"} || '/'`) }, { key: "urls", json: urls },
    ], false);
  }
}

/** The object of `members`, the first never empty; with `dropEmpty`, members whose `empty` holds are left out. */
function objectText(members: Member[], dropEmpty: boolean): string {
  const parts = members.flatMap((m, n) => {
    if ("members" in m) return [m.members];
    const key = literal(`${n ? "," : "{"}${JSON.stringify(m.key)}:`);
    return dropEmpty && m.empty ? [`CASE WHEN ${m.empty} THEN '' ELSE ${key} || ${m.json} END`] : [key, m.json];
  });
  return concatenated([...parts, "'}'"]);
}

/** The JSON text of a zone's short name (`zoneAbbr`) at the instant `utc` (now where null): a marker the server words, but for none and `UTC…`, which are their own. */
function zoneJson(zone: string, utc: string): string {
  return `CASE WHEN coalesce(${zone}, '') = '' THEN '""' WHEN ${zone} LIKE 'UTC%' THEN to_json(${zone})::text ` +
    `ELSE ${literal(`"${ZONE_START}`)} || ${inner(zone)} || ${literal(ZONE_AT)} || floor(extract(epoch FROM coalesce(${utc}, now())) * 1000)::bigint::text || ${literal(`${ZONE_START}"`)} END`;
}

/** Records' JSON text with zones' short names worded. */
export function finishedRecords(text: string): string {
  if (!text.includes(ZONE_START)) return text;
  return text.replace(ZONE, (_m, zone: string, at: string) => inString(zoneAbbr(zone.includes("\\") ? JSON.parse(`"${zone}"`) : zone, new Date(Number(at)))));
}
