// Custom fields, computed fields and relationships in GraphQL, as Nautobot adds them when it
// builds its schema: each custom field becomes `cf_<name>` on the types of the models it
// applies to (and its filters `cf_<name>[__<lookup>]` arguments of their lists), each computed
// field `cpf_<slug>`, each relationship `rel_<slug>` (one peer or a list) on the types at its
// ends. Definitions change
// while servers run, so the schema is extended from them when first needed, and every
// statement carries a fingerprint of them; a changed fingerprint has the schema rebuilt.
import { Kind, parse, visit, type FieldDefinitionNode, type GraphQLObjectType, type InputValueDefinitionNode, type ObjectTypeDefinitionNode } from "graphql";
import type { Knex } from "knex";
import type { ComputedFieldsField, CustomFieldDefinitions, ModelDescriptor } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import { labelOf } from "../kinds/content-types.js";
import { col, ident } from "../query/sql.js";
import { COMPARE, STRING_LOOKUPS } from "../query/filters.js";
import { builtSchema, compacted, type FieldSource, type GraphqlApi } from "./schema.js";

/** The GraphQL type of each custom-field type (Nautobot's CUSTOM_FIELD_MAPPING; others are strings). */
const TYPES: Record<string, string> = { integer: "Int", text: "String", boolean: "Boolean", date: "Date", url: "String", select: "String" };

export interface CustomDefinition { name: string; type: string; label: string; filter_logic: string }

/** A computed field's definition: the content type it applies to (as the definitions' column holds it), slug, template and fallback. */
export interface ComputedDefinition { content_type: string; slug: string; template: string; fallback: string }

/** A relationship definition, by the columns the api's relationship models have (ApiSpec.relationships). */
export interface RelationshipDefinition { id: string; slug: string; type: string; source_type: string; destination_type: string; source_hidden: boolean; destination_hidden: boolean }

/** What the schema is extended from, and the fingerprint of it. */
export interface Dynamic { fingerprint: string; defs: CustomDefinition[]; relationships: RelationshipDefinition[]; computed: ComputedDefinition[] }

/** The computed-field definitions table of an API's models, when they have computed fields. */
export function computedOf(index: ModelIndex): ComputedFieldsField["definitions"] | undefined {
  for (const m of index.api.models) {
    for (const f of m.fields) if (f.kind === "computedFields") return f.definitions;
  }
  return undefined;
}

/** The computed-field definitions as SQL rows `d` with `content_type`, `slug`, `template` and `fallback`. */
function computedRows(c: ComputedFieldsField["definitions"]): string {
  return `(SELECT ${col("x", c.contentType)}::text AS content_type, ${col("x", c.slug)}::text AS slug, ${col("x", c.template)}::text AS template, ` +
    `${col("x", c.fallback)}::text AS fallback FROM ${ident(c.table)} x)`;
}

/** The API's custom-field definitions table, when its models have custom fields. */
export function definitionsOf(index: ModelIndex): CustomFieldDefinitions | undefined {
  for (const m of index.api.models) {
    for (const f of m.fields) if (f.kind === "customFields" && f.definitions) return f.definitions;
  }
  return undefined;
}

/** The definitions joined to the content types they name, as SQL rows `d` with `label`. */
function joined(d: CustomFieldDefinitions): string {
  return `FROM ${ident(d.table)} d JOIN ${ident(d.contentTypes.table)} j ON ${col("j", d.contentTypes.source)} = d.id ` +
    `JOIN ${ident(d.registry.table)} r ON r.id = ${col("j", d.contentTypes.target)}`;
}

/** An SQL text expression that changes whenever a definition the schema shows does. */
export function fingerprintSql(d: CustomFieldDefinitions | undefined, relationships: string | undefined, computed?: ComputedFieldsField["definitions"]): string {
  const parts: string[] = [];
  if (d) parts.push(`(SELECT coalesce(string_agg(d.name || ':' || d.type || ':' || d.filter_logic || ':' || ${labelOf(d.registry, "r")}, ',' ORDER BY d.name, ${labelOf(d.registry, "r")}), '') ${joined(d)})`);
  // A template's text counts too: the schema carries it to render with.
  if (computed) parts.push(`(SELECT coalesce(string_agg(md5(d.content_type || ':' || d.slug || ':' || d.template || ':' || d.fallback), ',' ORDER BY d.content_type, d.slug), '') FROM ${computedRows(computed)} d)`);
  if (relationships) parts.push(`(SELECT coalesce(string_agg(d.id::text || ':' || d.slug || ':' || d.type || ':' || d.source_type || ':' || d.destination_type || ':' || d.source_hidden::text || ':' || d.destination_hidden::text, ',' ORDER BY d.id), '') FROM ${ident(relationships)} d)`);
  return `md5(${parts.length ? parts.join(" || '|' || ") : "''"})`;
}

export async function loadDynamic(db: Knex, d: CustomFieldDefinitions | undefined, relationships: string | undefined, computed?: ComputedFieldsField["definitions"]): Promise<Dynamic> {
  const defs = d
    ? `coalesce((SELECT json_agg(json_build_object('name', d.name, 'type', d.type, 'filter_logic', d.filter_logic, 'label', ${labelOf(d.registry, "r")}) ORDER BY d.name) ${joined(d)}), '[]'::json)`
    : "'[]'::json";
  const rels = relationships
    ? `coalesce((SELECT json_agg(json_build_object('id', d.id, 'slug', d.slug, 'type', d.type, 'source_type', d.source_type, 'destination_type', d.destination_type, 'source_hidden', d.source_hidden, 'destination_hidden', d.destination_hidden) ORDER BY d.slug) FROM ${ident(relationships)} d), '[]'::json)`
    : "'[]'::json";
  const cpfs = computed
    ? `coalesce((SELECT json_agg(json_build_object('content_type', d.content_type, 'slug', d.slug, 'template', d.template, 'fallback', d.fallback) ORDER BY d.slug) FROM ${computedRows(computed)} d), '[]'::json)`
    : "'[]'::json";
  return (await db.raw(`SELECT ${fingerprintSql(d, relationships, computed)} AS fingerprint, ${defs} AS defs, ${rels} AS relationships, ${cpfs} AS computed`)).rows[0] as Dynamic;
}

/** Nautobot's str_to_var_name of a definition's name. */
const varName = (name: string) => name.toLowerCase().replace(/[^a-z0-9_]+/g, "_");

const SAFE = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CHAR_TYPES = new Set(["text", "url", "select"]);

/**
 * The `cf_` filter arguments of a model's lists, as graphene converts Nautobot's custom-field
 * filters: Boolean for a boolean field, String for the other plain ones, a list for the lookups
 * (of Int for an integer field's); a name that is not GraphQL-safe as given is left out, as Nautobot does.
 */
function filterArgsOf(def: CustomDefinition): string[] {
  if (def.filter_logic === "disabled") return [];
  const name = `cf_${def.name}`;
  if (!SAFE.test(name) || varName(def.name) !== def.name) return [];
  const args = [`${name}: ${def.type === "boolean" ? "Boolean" : "String"}`];
  const lookups = CHAR_TYPES.has(def.type) ? ["n", ...Object.keys(STRING_LOOKUPS)] : def.type === "integer" || def.type === "date" ? ["n", ...Object.keys(COMPARE)] : [];
  for (const l of lookups) args.push(`${name}__${l}: [${def.type === "integer" ? "Int" : "String"}]`);
  return args;
}

/** `base` with each custom field's `cf_<name>` (and filters), each computed field's `cpf_<slug>` and each relationship's `rel_<slug>` on the types of the models they name. */
export function withDynamic(base: GraphqlApi, { defs, relationships, computed }: Dynamic): GraphqlApi {
  const types = new Map<string, { type: string; model: ModelDescriptor }>();
  for (const [type, model] of base.models) types.set(model.key, { type, model });
  const sources = new Map(base.sources);
  const byType = new Map<string, string[]>();
  const filters = new Map<string, string[]>();
  // A name the type already has (a model field, or a definition mapped to the same name) keeps its first meaning.
  const add = (type: string, name: string, line: string, source: FieldSource): void => {
    const key = `${type}.${name}`;
    if (sources.has(key) || (base.schema.getType(type) as GraphQLObjectType).getFields()[name]) return;
    sources.set(key, source);
    byType.set(type, [...(byType.get(type) ?? []), line]);
  };
  for (const def of defs) {
    const at = types.get(def.label);
    const column = at?.model.fields.find((f) => f.kind === "customFields");
    if (!at || !column || !("column" in column)) continue;
    const name = `cf_${varName(def.name)}`;
    add(at.type, name, `${name}: ${TYPES[def.type] ?? "String"}`, { kind: "custom", column: column.column, key: def.name, json: !TYPES[def.type] });
    filters.set(at.model.key, [...(filters.get(at.model.key) ?? []), ...filterArgsOf(def)]);
  }
  for (const def of computed) {
    const name = `cpf_${varName(def.slug)}`;
    for (const { type, model } of types.values()) {
      const field = model.fields.find((f): f is ComputedFieldsField => f.kind === "computedFields" && f.contentType === def.content_type);
      if (field) add(type, name, `${name}: String`, { kind: "computedField", field, definition: [def.slug, def.template, def.fallback] });
    }
  }
  const filterBy = (model: string, hidden: boolean, name: string) => {
    if (!hidden && SAFE.test(name) && varName(name) === name) filters.set(model, [...(filters.get(model) ?? []), `${name}: [String]`]);
  };
  for (const r of relationships) {
    const symmetric = r.type.startsWith("symmetric-");
    // Nautobot's RelationshipFilter per visible side: named by the side it picks objects of (graphene: a list of strings).
    if (symmetric) {
      filterBy(r.source_type, r.source_hidden, `cr_${r.slug}__peer`);
      if (r.destination_type !== r.source_type) filterBy(r.destination_type, r.destination_hidden, `cr_${r.slug}__peer`);
    } else {
      filterBy(r.source_type, r.source_hidden, `cr_${r.slug}__destination`);
      filterBy(r.destination_type, r.destination_hidden, `cr_${r.slug}__source`);
    }
    for (const side of ["source", "destination"] as const) {
      const peerSide = side === "source" ? "destination" : "source";
      const at = types.get(side === "source" ? r.source_type : r.destination_type);
      const peer = types.get(peerSide === "source" ? r.source_type : r.destination_type);
      if (!at || !peer) continue;
      const name = `rel_${varName(r.slug)}${!symmetric && r.source_type === r.destination_type ? `_${peerSide}` : ""}`;
      // A symmetric relationship's second end is the first one again.
      const many = r.type.includes("many-to-many") || (r.type === "one-to-many" && peerSide === "destination");
      add(at.type, name, `${name}: ${many ? `[${peer.type}]` : peer.type}`, { kind: "relationship", id: r.id, side, symmetric, peer: peer.model });
    }
  }
  if (!byType.size && !filters.size) return base;
  const extensions = [...byType].map(([type, fields]) => `extend type ${type} {\n  ${fields.join("\n  ")}\n}`);
  const argsOf = new Map([...filters].filter(([, a]) => a.length).map(([key, a]) => [key, (parse(`type X { f(${[...new Set(a)].join(", ")}): Int }`).definitions[0] as ObjectTypeDefinitionNode).fields![0].arguments ?? []]));
  // Each list of a model (its query, and the reverse lists of its rows) takes its filters.
  const document = visit(base.document(), {
    FieldDefinition(node): FieldDefinitionNode | undefined {
      const d = node.directives?.find((x) => (x.name.value === "rows" && x.arguments?.some((a) => a.name.value === "many" && a.value.kind === Kind.BOOLEAN && a.value.value)) || x.name.value === "reverse");
      const model = d?.arguments?.find((a) => a.name.value === "model")?.value;
      const extra = model?.kind === Kind.STRING ? argsOf.get(model.value) : undefined;
      if (!extra) return undefined;
      const have = new Set((node.arguments ?? []).map((a) => a.name.value));
      const more: InputValueDefinitionNode[] = extra.filter((a) => !have.has(a.name.value));
      return { ...node, arguments: [...(node.arguments ?? []), ...more] };
    },
  });
  const extended = extensions.length ? { ...document, definitions: [...document.definitions, ...parse(extensions.join("\n")).definitions] } : document;
  return { ...base, schema: compacted(builtSchema(extended, { assumeValidSDL: true })), sources };
}
