// Shared schemas: a schema fragment that recurs in a document (a relationships map, a cable
// end, the list of content types a field may name, an id-or-attributes reference) is written
// once under `components.schemas` and referred to with `$ref` wherever it occurred. Takes a
// whole document; gives it back with the same meaning and fewer bytes. Replacing a subschema
// by a reference to an identical one changes nothing a validator or a client sees.
//
// What it leaves alone: the root of each component (its name is a contract), and the shapes
// runtime/profiles/drf/documents.ts reads at an operation's schema root (the `anyOf` of a
// GET's forms, the `oneOf` of one object or many) with the members of those unions.
import { byCodePoint } from "../../ir/names.js";
import type { Schema } from "./schemas.js";

/** Keywords whose value is one subschema, a list of them, or a map of them (JSON Schema 2020-12). */
const ONE = ["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "dependentSchemas", "$defs"];

/** A fragment shared saves at least this many bytes, or stays where it is: a reference reads worse. */
const MIN_SAVING = 600;

interface Site {
  /** Where it hangs: the holder and the key (or index) that reach it. */
  holder: Record<string | number, unknown>;
  key: string | number;
  /** A name the place suggests (`relationships`, `source`): the property it describes, or the body an operation takes. */
  hint: string;
  /** The component or operation it is part of. */
  owner: string;
  /** The subschemas it sits inside: once one of them is replaced by a reference, this site is gone. */
  within: Schema[];
}

interface Fragment {
  text: string;
  sites: Site[];
}

const isSchema = (v: unknown): v is Schema => v !== null && typeof v === "object" && !Array.isArray(v);

type Visit = (site: Site, value: Schema) => void;

/** Every subschema of `schema` (not `schema` itself), with the site it hangs at; `hint` names `schema`'s place. */
function eachSubschema(schema: Schema, hint: string, owner: string, visit: Visit, within: Schema[] = []): void {
  const at = (holder: Record<string | number, unknown>, key: string | number, name: string) => {
    const value = holder[key];
    if (!isSchema(value)) return;
    visit({ holder, key, hint: name, owner, within }, value);
    eachSubschema(value, name, owner, visit, [...within, value]);
  };
  for (const k of ONE) if (k in schema) at(schema, k, k === "items" ? `${hint}_item` : k === "additionalProperties" ? `${hint}_entry` : hint);
  for (const k of LIST) if (Array.isArray(schema[k])) (schema[k] as unknown[]).forEach((_, i) => at(schema[k] as unknown as Record<number, unknown>, i, hint));
  for (const k of MAP) {
    const map = schema[k];
    if (isSchema(map)) for (const name of Object.keys(map)) at(map as Record<string, unknown>, name, name);
  }
}

/**
 * The schema roots outside `components.schemas`: parameters' (hinted by their name), request
 * bodies' (`request`) and responses' (`response`), each owned by its operation (or shared
 * parameter or response).
 */
function schemaRoots(node: unknown, hint: string, owner: string, visit: (holder: Record<string, unknown>, hint: string, owner: string) => void): void {
  if (node === null || typeof node !== "object") return;
  const here = node as Record<string, unknown>;
  if (typeof here.operationId === "string") owner = here.operationId;
  if (typeof here.name === "string" && typeof here.in === "string") hint = here.name;
  for (const [k, v] of Object.entries(here)) {
    if (k === "schema" && isSchema(v)) visit(here, hint, owner);
    else schemaRoots(v, k === "requestBody" ? "request" : k === "responses" ? "response" : hint, owner, visit);
  }
}

const pascal = (hint: string) => hint.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, _sep, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, "");

/** The words operation ids end in alike (`bulk_destroy` of `dcim_sites_bulk_destroy`, `ipam_vlans_bulk_destroy`). */
function commonEnd(ids: string[]): string {
  const words = ids.map((id) => id.split("_").reverse());
  const out: string[] = [];
  for (let i = 0; words.every((w) => i < w.length - 1 && w[i] === words[0][i]); i++) out.unshift(words[0][i]);
  return out.join("_");
}

/** The model a component describes: `PatchedWritableDeviceRequest`, `BriefDevice` → `Device`. */
const modelOf = (component: string) => component.replace(/^Paginated(.*)List$/, "$1").replace(/^(Patched)?(Writable)?(.*?)(Request)?$/, "$3").replace(/^(Brief|Nested)(?=[A-Z])/, "");

/**
 * A fragment's name, from its places: one model's `<Model><Hint>` (`InterfaceType`); several
 * models' shared `<Hint>` (`Relationships`), or where that is taken `<Hint>Enum` for a list of
 * values and `<Hint>Write` for what only write bodies take; an operation's body by what its
 * operations' ids end in (`BulkDestroyRequest`).
 */
function nameOf(f: Fragment, live: Site[], taken: Set<string>): string {
  const hints = new Map<string, number>();
  for (const s of live) hints.set(s.hint, (hints.get(s.hint) ?? 0) + 1);
  const hint = pascal([...hints].sort((a, b) => b[1] - a[1] || byCodePoint(a[0], b[0]))[0][0]);
  const owners = [...new Set(live.map((s) => s.owner))].sort(byCodePoint);
  const models = [...new Set(owners.map(modelOf))].sort(byCodePoint);
  const operations = owners.every((o) => /^[a-z0-9_-]+$/.test(o) && o.includes("_"));
  const values = f.text.includes(`"enum":`) && !f.text.includes(`"properties"`) ? "Enum" : "";
  const write = owners.every((o) => /^(Patched|Writable)|Request$/.test(o)) ? "Write" : "";
  const own = `${models[0]}${hint}`;
  const candidates = operations ? [`${pascal(commonEnd(owners))}${hint}`, `${pascal(owners[0])}${hint}`]
    : models.length === 1 ? [own, `${own}${write}`, `${own}${values}`, `${own}${write}${values}`]
    : [hint, `${hint}${values}`, `${hint}${write}`, own, `${own}${write}`, `${own}${values}`, `${own}${write}${values}`];
  const free = candidates.find((c) => c && !taken.has(c));
  if (free) return free;
  for (let n = 2; ; n++) if (!taken.has(`${candidates[0]}${n}`)) return `${candidates[0]}${n}`;
}

/** `doc` with each recurring schema fragment written once under `components.schemas`. */
export function shareSchemas<D extends { paths: Record<string, unknown>; components: { schemas: Record<string, Schema>; parameters?: unknown; responses?: unknown } }>(built: D): D {
  // A copy without shared objects: each site its own subschema, to move or replace.
  const doc = JSON.parse(JSON.stringify(built)) as D;
  const schemas = doc.components.schemas;
  const fragments = new Map<string, Fragment>();
  const note = (site: Site, value: Schema) => {
    if (typeof value.$ref === "string") return;
    const text = JSON.stringify(value);
    if (text.length < 48) return;
    const f = fragments.get(text);
    if (f) f.sites.push(site);
    else fragments.set(text, { text, sites: [site] });
  };
  for (const name of Object.keys(schemas)) eachSubschema(schemas[name], name, name, note);
  schemaRoots([doc.paths, doc.components.parameters, doc.components.responses], "", "", (holder, hint, owner) => {
    const root = holder.schema as Schema;
    // documents.ts reads a root union and its members as they are: those stay inline.
    const union = Array.isArray(root.anyOf) || Array.isArray(root.oneOf);
    if (!union) note({ holder, key: "schema", hint, owner, within: [] }, root);
    eachSubschema(root, hint, owner, (site, value) => {
      if (union && (site.holder === root.anyOf || site.holder === root.oneOf)) return;
      note(site, value);
    }, [root]);
  });

  // A component's own root, met again elsewhere, is referred to by the component's name.
  const named = new Map<string, string>();
  for (const name of Object.keys(schemas).sort(byCodePoint)) {
    const text = JSON.stringify(schemas[name]);
    if (!named.has(text)) named.set(text, name);
  }
  const taken = new Set(Object.keys(schemas));
  // Largest first, so a fragment inside a shared one is counted once it is shared.
  const order = [...fragments.values()].sort((a, b) => b.text.length - a.text.length || byCodePoint(a.text, b.text));
  // Replaced subschemas: a site inside one is no longer in the document. (A fragment's sites
  // keep their text until it is their turn: only shorter fragments, inside them, come later.)
  const replaced = new WeakSet<Schema>();
  for (const f of order) {
    const live = f.sites.filter((s) => !s.within.some((w) => replaced.has(w)));
    const existing = named.get(f.text);
    if (!live.length) continue;
    // Each reference costs its own text; a new component its text and its name once more.
    const reference = `{"$ref":"#/components/schemas/"}`.length + 24;
    if (!existing && (live.length - 1) * f.text.length - live.length * reference - 24 < MIN_SAVING) continue;
    let name = existing;
    if (!name) {
      name = nameOf(f, live, taken);
      taken.add(name);
      // The first site's subschema moves to the components, with the sites inside it.
      schemas[name] = live[0].holder[live[0].key] as Schema;
      named.set(f.text, name);
    }
    live.forEach((s, i) => {
      if (existing || i > 0) replaced.add(s.holder[s.key] as Schema);
      s.holder[s.key] = { $ref: `#/components/schemas/${name}` };
    });
  }
  doc.components.schemas = Object.fromEntries(Object.keys(schemas).sort(byCodePoint).map((k) => [k, schemas[k]]));
  return doc;
}
