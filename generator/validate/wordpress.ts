// Validation of a model's `wordpress` options (the WordPress-style profile's presentation):
// every key known, every value of its type, every field it names a field of the model, and the
// fields the profile itself reads present. A typo here would otherwise generate cleanly and
// fail at request time.
import type { ModelSpec } from "../dsl/index.js";

type Report = (message: string) => void;

const FIELD = ["titleField", "money", "hiddenFlag", "archiveOrder"] as const;
const FIELD_LISTS = ["images", "html", "permalinkFallback", "dedupeOn", "search", "embed"] as const;
const FLAGS = ["slugRoutes", "dropEmpty"] as const;
const GROUPS: Record<string, { required: string[]; optional: string[] }> = {
  wallClock: { required: ["start", "end", "timezone", "utcStart", "utcEnd"], optional: ["allDay"] },
  geo: { required: ["lat", "lng"], optional: [] },
};
const KNOWN = new Set<string>(["kind", "listKey", "noun", "taxonomy", ...FIELD, ...FIELD_LISTS, ...FLAGS, ...Object.keys(GROUPS)]);
/** The fields the profile reads on every record of each kind. */
const NEEDS = { post: ["status", "slug", "author", "date", "modified"], term: ["name", "slug", "description"] };

const list = (xs: Iterable<string>) => [...xs].join(", ");

/** `kindOf` gives a declared field's kind (`fk`, `m2m`, `scalar`…), undefined for implicit ones. */
export function checkWordpressOptions(m: ModelSpec, profile: string, has: (field: string) => boolean, kindOf: (field: string) => string | undefined, report: Report): void {
  const wp = m.wordpress as Record<string, unknown> | undefined;
  if (wp === undefined) return;
  if (profile !== "wordpress") {
    report(`wordpress options need the "wordpress" profile (this API's is "${profile}")`);
    return;
  }
  if (typeof wp !== "object" || wp === null || Array.isArray(wp)) {
    report("wordpress options must be an object");
    return;
  }
  for (const key of Object.keys(wp)) if (!KNOWN.has(key)) report(`unknown wordpress option "${key}" (known: ${list(KNOWN)})`);
  const named = (option: string, value: unknown) => {
    if (typeof value !== "string") report(`wordpress.${option} must be a field name`);
    else if (!has(value)) report(`wordpress.${option} names unknown field "${value}"`);
  };

  if (wp.kind !== "post" && wp.kind !== "term") report(`wordpress.kind must be "post" or "term", not ${JSON.stringify(wp.kind)}`);
  if (typeof wp.listKey !== "string" || !/^[a-z][a-z0-9-]*$/.test(wp.listKey)) report("wordpress.listKey must be lower-case letters, digits and dashes");
  if (typeof wp.noun !== "string" || !/^[a-z][a-z0-9_-]*$/.test(wp.noun)) report("wordpress.noun must be a lower-case word");
  if (wp.taxonomy !== undefined && typeof wp.taxonomy !== "string") report("wordpress.taxonomy must be a string");
  for (const flag of FLAGS) if (wp[flag] !== undefined && typeof wp[flag] !== "boolean") report(`wordpress.${flag} must be true or false`);
  for (const option of FIELD) if (wp[option] !== undefined) named(option, wp[option]);
  for (const option of FIELD_LISTS) {
    const value = wp[option];
    if (value === undefined) continue;
    if (!Array.isArray(value)) report(`wordpress.${option} must be a list of field names`);
    else value.forEach((v, i) => named(`${option}[${i}]`, v));
    if (option === "embed" && Array.isArray(value)) {
      for (const v of value) if (typeof v === "string" && has(v) && !["fk", "m2m"].includes(kindOf(v) ?? "")) report(`wordpress.embed names "${v}", which is not a foreign key or many-to-many field`);
    }
  }
  for (const [option, { required, optional }] of Object.entries(GROUPS)) {
    const group = wp[option];
    if (group === undefined) continue;
    if (typeof group !== "object" || group === null || Array.isArray(group)) {
      report(`wordpress.${option} must be an object of field names (${list(required)})`);
      continue;
    }
    const entries = group as Record<string, unknown>;
    for (const key of Object.keys(entries)) if (![...required, ...optional].includes(key)) report(`unknown wordpress.${option} key "${key}"`);
    for (const key of required) if (entries[key] === undefined) report(`wordpress.${option}.${key} is required`);
    for (const [key, value] of Object.entries(entries)) if ([...required, ...optional].includes(key)) named(`${option}.${key}`, value);
  }
  if (wp.kind === "post" && wp.titleField === undefined) report("wordpress.titleField is required for a post type");
  if (wp.kind === "post" || wp.kind === "term") {
    for (const field of NEEDS[wp.kind as "post" | "term"]) if (!has(field)) report(`a wordpress ${wp.kind} needs a field "${field}"`);
  }
  checkEmbeddedForm(m, wp.kind, has, kindOf, report);
}

/**
 * Another record embeds this one in its nested form, which the engine reads in the same
 * statement: a post embeds whole, a term with its name, slug, description, parent and the
 * counts its `count` sums.
 */
function checkEmbeddedForm(m: ModelSpec, kind: unknown, has: (field: string) => boolean, kindOf: (field: string) => string | undefined, report: Report): void {
  if (kind === "post" && m.nested !== "all") report('a wordpress post is embedded whole: its nested form must be "all"');
  if (kind !== "term" || m.nested === "all" || !Array.isArray(m.nested)) return;
  const shown = [...NEEDS.term, ...(has("parent") ? ["parent"] : []), ...Object.keys(m.fields).filter((f) => kindOf(f) === "count")];
  const missing = shown.filter((f) => !m.nested.includes(f));
  if (missing.length) report(`a wordpress term is embedded with ${list(shown)}: its nested form lacks ${list(missing)}`);
}
