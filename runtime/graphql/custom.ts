// Custom fields and relationships in GraphQL, as Nautobot adds them when it builds its schema:
// each custom field becomes `cf_<name>` on the types of the models it applies to, each
// relationship `rel_<slug>` (one peer or a list) on the types at its ends. Definitions change
// while servers run, so the schema is extended from them when first needed, and every
// statement carries a fingerprint of them; a changed fingerprint has the schema rebuilt.
import { extendSchema, parse, type GraphQLObjectType } from "graphql";
import type { Knex } from "knex";
import type { CustomFieldDefinitions, ModelDescriptor } from "../descriptor.js";
import type { ModelIndex } from "../models.js";
import { labelOf } from "../kinds/content-types.js";
import { col, ident } from "../query/sql.js";
import type { GraphqlApi } from "./schema.js";

/** The GraphQL type of each custom-field type (Nautobot's CUSTOM_FIELD_MAPPING; others are strings). */
const TYPES: Record<string, string> = { integer: "Int", text: "String", boolean: "Boolean", date: "Date", url: "String", select: "String" };

export interface CustomDefinition { name: string; type: string; label: string }

/** A relationship definition, by the columns the api's relationship models have (ApiSpec.relationships). */
export interface RelationshipDefinition { id: string; slug: string; type: string; source_type: string; destination_type: string }

/** What the schema is extended from, and the fingerprint of it. */
export interface Dynamic { fingerprint: string; defs: CustomDefinition[]; relationships: RelationshipDefinition[] }

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
export function fingerprintSql(d: CustomFieldDefinitions | undefined, relationships: string | undefined): string {
  const parts: string[] = [];
  if (d) parts.push(`(SELECT coalesce(string_agg(d.name || ':' || d.type || ':' || ${labelOf(d.registry, "r")}, ',' ORDER BY d.name, ${labelOf(d.registry, "r")}), '') ${joined(d)})`);
  if (relationships) parts.push(`(SELECT coalesce(string_agg(d.id::text || ':' || d.slug || ':' || d.type || ':' || d.source_type || ':' || d.destination_type, ',' ORDER BY d.id), '') FROM ${ident(relationships)} d)`);
  return `md5(${parts.length ? parts.join(" || '|' || ") : "''"})`;
}

export async function loadDynamic(db: Knex, d: CustomFieldDefinitions | undefined, relationships: string | undefined): Promise<Dynamic> {
  const defs = d
    ? `coalesce((SELECT json_agg(json_build_object('name', d.name, 'type', d.type, 'label', ${labelOf(d.registry, "r")}) ORDER BY d.name) ${joined(d)}), '[]'::json)`
    : "'[]'::json";
  const rels = relationships
    ? `coalesce((SELECT json_agg(json_build_object('id', d.id, 'slug', d.slug, 'type', d.type, 'source_type', d.source_type, 'destination_type', d.destination_type) ORDER BY d.slug) FROM ${ident(relationships)} d), '[]'::json)`
    : "'[]'::json";
  return (await db.raw(`SELECT ${fingerprintSql(d, relationships)} AS fingerprint, ${defs} AS defs, ${rels} AS relationships`)).rows[0] as Dynamic;
}

/** Nautobot's str_to_var_name of a definition's name. */
const varName = (name: string) => name.toLowerCase().replace(/[^a-z0-9_]+/g, "_");

/** `base` with each custom field's `cf_<name>` and each relationship's `rel_<slug>` on the types of the models they name. */
export function withDynamic(base: GraphqlApi, { defs, relationships }: Dynamic): GraphqlApi {
  const types = new Map<string, { type: string; model: ModelDescriptor }>();
  for (const [type, model] of base.models) types.set(model.key, { type, model });
  const extensions: string[] = [];
  const sources = new Map(base.sources);
  const byType = new Map<string, string[]>();
  for (const def of defs) {
    const at = types.get(def.label);
    const column = at?.model.fields.find((f) => f.kind === "customFields");
    if (!at || !column || !("column" in column)) continue;
    const name = `cf_${varName(def.name)}`;
    const key = `${at.type}.${name}`;
    // A name the type already has (a model field, or a definition mapped to the same name) keeps its first meaning.
    if (sources.has(key) || (base.schema.getType(at.type) as GraphQLObjectType).getFields()[name]) continue;
    sources.set(key, { kind: "custom", column: column.column, key: def.name, json: !TYPES[def.type] });
    byType.set(at.type, [...(byType.get(at.type) ?? []), `${name}: ${TYPES[def.type] ?? "String"}`]);
  }
  for (const r of relationships) {
    const symmetric = r.type.startsWith("symmetric-");
    for (const side of ["source", "destination"] as const) {
      const peerSide = side === "source" ? "destination" : "source";
      const at = types.get(side === "source" ? r.source_type : r.destination_type);
      const peer = types.get(peerSide === "source" ? r.source_type : r.destination_type);
      if (!at || !peer) continue;
      const name = `rel_${varName(r.slug)}${!symmetric && r.source_type === r.destination_type ? `_${peerSide}` : ""}`;
      const key = `${at.type}.${name}`;
      // A symmetric relationship's second end is the first one again.
      if (sources.has(key) || (base.schema.getType(at.type) as GraphQLObjectType).getFields()[name]) continue;
      const many = r.type.includes("many-to-many") || (r.type === "one-to-many" && peerSide === "destination");
      sources.set(key, { kind: "relationship", id: r.id, side, symmetric, peer: peer.model });
      byType.set(at.type, [...(byType.get(at.type) ?? []), `${name}: ${many ? `[${peer.type}]` : peer.type}`]);
    }
  }
  for (const [type, fields] of byType) extensions.push(`extend type ${type} {\n  ${fields.join("\n  ")}\n}`);
  if (!extensions.length) return base;
  return { ...base, schema: extendSchema(base.schema, parse(extensions.join("\n")), { assumeValidSDL: true }), sources };
}
