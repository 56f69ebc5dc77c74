// WordPress's values as SQL of their JSON text, each exactly what records.ts writes in
// JavaScript: wall times in a zone (with their `_details`), money with its `_details`, images,
// paragraphs (wpautop). Over SQL expressions of stored values; nothing here runs a statement.
// JavaScript's regular expressions are spelled out for PostgreSQL's (its `\s` and `\d` follow
// the locale, JavaScript's do not), and without `?`, which knex takes for a binding.
import { literal } from "../../query/sql.js";

/** JavaScript's white space (`\s`, what `trim()` strips), as the body of a PostgreSQL bracket expression. */
const SPACE = "\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";

/** `trim()` of the text `expr`. */
const trimmed = (expr: string): string => `regexp_replace(${expr}, ${literal(`^[${SPACE}]+|[${SPACE}]+$`)}, '', 'g')`;

/** The JSON string of the SQL text `expr`. */
const stringJson = (expr: string): string => `to_json(${expr})::text`;

/** SQL of the wall time (timestamp) of the instant `expr` (timestamptz) in `tz`: an IANA zone, or WordPress's `UTC±N[:MM]`. */
export function wallIn(expr: string, tz: string): string {
  const fixed = /^UTC(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$/.exec(tz);
  if (!fixed) return `(${expr} AT TIME ZONE ${literal(tz)})`;
  const minutes = fixed[1] ? (fixed[1] === "-" ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3] ?? 0)) : 0;
  return minutes ? `(${expr} AT TIME ZONE 'UTC' + interval '${minutes} minutes')` : `(${expr} AT TIME ZONE 'UTC')`;
}

/** A wall time's fields as `formatWall` and `details` write them. */
const WALL = "YYYY-MM-DD HH24:MI:SS";

/** Text a `to_char` format writes as it is (in its double quotes, its own quotes escaped). */
const formatText = (text: string): string => `"${text.replace(/"/g, '\\"')}"`;

/** `,"<key>":"2024-07-14 20:00:00"` of the wall time (timestamp) `wall`, for each of `keys`, in one `to_char`. */
export const wallMembers = (keys: string[], wall: string): string =>
  `to_char(${wall}, ${literal(keys.map((key) => `${formatText(`,${JSON.stringify(key)}:"`)}${WALL}${formatText('"')}`).join(""))})`;

/** `,"<key>":"…","<key>_details":{"year":"2024",…}` of the wall time (timestamp) `wall`, in one `to_char`. */
export function wallWithDetails(key: string, wall: string): string {
  const parts: Array<[string, string]> = [["year", "YYYY"], ["month", "MM"], ["day", "DD"], ["hour", "HH24"], ["minutes", "MI"], ["seconds", "SS"]];
  const details = parts.map(([name, field], n) => `${formatText(`${n ? "," : "{"}"${name}":"`)}${field}${formatText('"')}`).join("");
  return `to_char(${wall}, ${literal(`${formatText(`,${JSON.stringify(key)}:"`)}${WALL}${formatText(`",${JSON.stringify(`${key}_details`)}:`)}${details}${formatText("}")}`)})`;
}

/** The smallest digit string JavaScript's Number reads as Infinity (what PostgreSQL's float8 refuses). */
const DOUBLE_OVERFLOW = (2n ** 1024n - 2n ** 970n).toString();

/**
 * `,"<name>":"…","<name>_details":{…}` of the stored price text `stored`, as `money` writes them:
 * the numbers in it ascending, the currency symbol (the first run of other characters, a
 * first "free" aside) before or after the first digit, a range of several prices. The prices
 * and the symbol are worked out once (OFFSET 0): inlined, each use would find them again.
 */
export function moneyMembers(name: string, stored: string): string {
  const empty = `,${JSON.stringify(name)}:"",${JSON.stringify(`${name}_details`)}:{"currency_symbol":"","currency_code":"","currency_position":"","values":[]}`;
  const number = `CASE WHEN length(t) >= ${DOUBLE_OVERFLOW.length} AND t::numeric >= ${DOUBLE_OVERFLOW} THEN 'Infinity'::float8 ELSE t::float8 END`;
  const shown = (x: string) => `CASE WHEN ${x} = 'Infinity' THEN 'Infinity' ELSE armature_json_number(${x}) END`;
  const price = (x: string) => `CASE WHEN ${x} = 0 THEN 'Free' WHEN y.pos = 'prefix' THEN y.sym || ${shown(x)} ELSE ${shown(x)} || y.sym END`;
  const display = `CASE WHEN a.n = 0 THEN s.v WHEN a.n = 1 THEN CASE WHEN a.xs[1] = 0 THEN 'Free' ELSE s.v END ` +
    `ELSE ${price("a.xs[1]")} || ' – ' || ${price("a.xs[a.n]")} END`;
  return `CASE WHEN coalesce(${stored}, '') = '' THEN ${literal(empty)} ELSE (SELECT concat(${literal(`,${JSON.stringify(name)}:`)}, ${stringJson(display)}, ` +
    `${literal(`,${JSON.stringify(`${name}_details`)}:{"currency_symbol":`)}, ${stringJson("y.sym")}, ',"currency_code":"","currency_position":', ${stringJson("y.pos")}, ` +
    `',"values":[', (SELECT string_agg('"' || ${shown("d.x")} || '"', ',' ORDER BY d.x) FROM (SELECT DISTINCT unnest(a.xs) AS x) d), ']}') ` +
    `FROM (SELECT ${stored} AS v) s, ` +
    `LATERAL (SELECT array(SELECT ${number} FROM regexp_matches(s.v, '([0-9]+([.,][0-9]+){0,1})', 'g') m, LATERAL (SELECT replace(m[1], ',', '.') AS t) p ORDER BY 1) AS xs OFFSET 0) x, ` +
    `LATERAL (SELECT x.xs, cardinality(x.xs) AS n) a, ` +
    `LATERAL (SELECT coalesce(substring(regexp_replace(s.v, 'free', '', 'i') from ${literal(`[^0-9${SPACE}.,–-]+`)}), '') AS sym OFFSET 0) z, ` +
    `LATERAL (SELECT z.sym, CASE WHEN z.sym = '' THEN '' WHEN strpos(s.v, z.sym) - 1 < CASE WHEN s.v ~ '[0-9]' THEN length(substring(s.v from '^[^0-9]*')) ELSE -1 END ` +
    `THEN 'prefix' ELSE 'postfix' END AS pos) y) END`;
}

/** The JSON of an image reference as `image` writes it: `false`, or `{url, id, extension}`. */
export function imageJson(ref: string): string {
  const extension = `lower(coalesce(substring(${ref} from '\\.([A-Za-z0-9]+)([\\x3f#][^\\n\\r\\u2028\\u2029]*){0,1}$'), ''))`;
  return `CASE WHEN coalesce(${ref}, '') = '' THEN 'false' ELSE concat('{"url":', ${stringJson(ref)}, ',"id":0,"extension":', ${stringJson(extension)}, '}') END`;
}

/** Block-level HTML a paragraph may start with, which `autop` leaves unwrapped. */
const BLOCK = `^</{0,1}(p|div|h[1-6]|ul|ol|li|dl|table|blockquote|pre|figure|hr|section|article|aside|header|footer|form|address)[${SPACE}>/]`;

/** One trimmed, non-empty paragraph `p` as `autop` writes it. */
const paragraph = (p: string): string => `CASE WHEN ${p} ~* ${literal(BLOCK)} THEN ${p} ELSE '<p>' || replace(${p}, E'\\n', E'<br />\\n') || '</p>' END`;

/** The JSON string of the text `expr` as `autop` writes it; empty text without a regular expression, one line without a sub-select. */
export function autopJson(expr: string): string {
  const text = `coalesce(${expr}, '')`;
  const one = `(SELECT CASE WHEN p = '' THEN '' ELSE ${paragraph("p")} END FROM (SELECT ${trimmed(text)} AS p) q)`;
  const many = `(SELECT coalesce(string_agg(${paragraph("q.p")}, E'\\n' ORDER BY s.n), '') ` +
    `FROM regexp_split_to_table(${trimmed(`regexp_replace(${text}, '\\r\\n|\\r', E'\\n', 'g')`)}, ${literal(`\\n[${SPACE}]*\\n`)}) WITH ORDINALITY s(raw, n), ` +
    `LATERAL (SELECT ${trimmed("s.raw")} AS p) q WHERE q.p <> '')`;
  return `CASE WHEN ${text} = '' THEN '""' ELSE ${stringJson(`CASE WHEN ${text} ~ '[\\n\\r]' THEN ${many} ELSE ${one} END`)} END`;
}

/** Whether the text `expr` is one `autop` writes as "": empty or white space. */
export const blankText = (expr: string): string => `(coalesce(${expr}, '') = '' OR ${expr} ~ ${literal(`^[${SPACE}]+$`)})`;
