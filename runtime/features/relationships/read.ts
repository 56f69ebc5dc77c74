// The `relationships` value of a row: every relationship that applies to the model (hidden
// ones too), with the objects at the other end in their model's nested form. One sub-select
// over the definitions and associations, in the row's own statement: the definitions are
// read with the rows, so a new relationship shows at once on every server instance.
//
// The sub-select nests objects of the models the model's relationships name at their other
// end, not of every model a relationship could name: that statement was ~72 KB, and parsing
// and planning it dominated every write's reply. Which models those are is an assumption of
// the plan, re-checked by each statement (see ReadContext.assume); a model no relationship
// names reads a constant.
import type { ModelDescriptor } from "../../descriptor.js";
import type { ReadContext, Render, RenderContext } from "../../kinds/types.js";
import { API_URL_MARKER, javascriptKeyOrder, urlStart } from "../../query/json-text.js";
import { col, literal } from "../../query/sql.js";
import { plural } from "../../text/plural.js";
import { isSymmetric, sideLabel, tablesOf, type Relationship } from "./definitions.js";

type Nested = Record<string, unknown>;

/** One relationship as the sub-select gives it: its definition and the objects at each end. */
interface Selected extends Relationship {
  /** Objects this row is the source for (null when this model is not the source type). */
  to: Array<{ type: string; object: Nested | null }> | null;
  /** Objects this row is the destination for. */
  from: Array<{ type: string; object: Nested | null }> | null;
}

/** The models relationships may join: those with a relationships field. */
export const relationshipModels = (ctx: Pick<ReadContext, "index">): ModelDescriptor[] =>
  ctx.index.api.models.filter((m) => m.fields.some((f) => f.kind === "relationships"));

/** The models at the other end of `model`'s relationships, as one sorted, comma-separated text. */
function peersProbe(definitions: string, key: string): string {
  return `(SELECT coalesce(string_agg(p, ',' ORDER BY p), '') FROM (SELECT destination_type AS p FROM ${definitions} WHERE source_type = ${key} ` +
    `UNION SELECT source_type FROM ${definitions} WHERE destination_type = ${key}) peers)`;
}

/** The models at the other end of the model's relationships, as the plan assumes them. */
function peersOf(ctx: ReadContext): Set<string> {
  const { definitions } = tablesOf(ctx.index);
  return new Set(ctx.assume(`relationship-peers:${ctx.model.key}`, peersProbe(definitions, literal(ctx.model.key))).split(",").filter(Boolean));
}

/**
 * SQL of `sideLabel` of the relationship `rel_r` seen from `own`: the side's label, else the
 * model at the other end named as the API names it (one of `peers`), plural where it holds many.
 */
function sideLabelSql(ctx: ReadContext, own: "source" | "destination", peers: Set<string>): string {
  const other = own === "source" ? "destination" : "source";
  const label = `rel_r.${own}_label`;
  const many = other === "destination" ? "rel_r.type NOT IN ('one-to-one', 'symmetric-one-to-one')" : "rel_r.type IN ('many-to-many', 'symmetric-many-to-many')";
  const names = [...peers].flatMap((key) => {
    const m = ctx.index.byKey.get(key);
    return m ? [`WHEN ${literal(key)} THEN CASE WHEN ${many} THEN ${literal(plural(m.sentenceName))} ELSE ${literal(m.sentenceName)} END`] : [];
  });
  return `CASE WHEN coalesce(${label}, '') <> '' THEN ${label} ELSE CASE rel_r.${other}_type ${names.join(" ")} ELSE replace(rel_r.name, '_', ' ') END END`;
}

/** The JSON text of the value `relationshipsRender` makes, written by PostgreSQL. */
export function relationshipsJson(ctx: ReadContext): string | undefined {
  const peers = peersOf(ctx);
  if (!peers.size) return "'{}'";
  const { definitions, associations } = tablesOf(ctx.index);
  const key = literal(ctx.model.key);
  const self = col(ctx.alias, "id");
  const defs = ctx.index.model(ctx.index.api.relationships!.definitions);
  const branches: string[] = [];
  for (const t of relationshipModels(ctx).filter((x) => peers.has(x.key))) {
    const json = ctx.nestedObjectJson(t, (a) => `${a}.id = rel_x.obj_id`);
    if (json === undefined) return undefined;
    branches.push(`WHEN ${literal(t.key)} THEN ${json}`);
  }
  // The objects of one end, comma-separated (NULL: none), those whose row is gone left out.
  const objects = (end: "source" | "destination", own: "source" | "destination") =>
    `(SELECT string_agg(o.j, ',' ORDER BY o.id) FROM (SELECT rel_x.id, CASE rel_x.obj_type ${branches.join(" ")} END AS j ` +
    `FROM (SELECT id, ${end}_type AS obj_type, ${end}_id AS obj_id FROM ${associations} WHERE relationship_id = rel_r.id AND ${own}_id = ${self}) rel_x) o ` +
    `WHERE o.j <> 'null')`;
  const side = (name: string, label: string, type: string, list: string) =>
    `${literal(`,"${name}":{"label":`)} || to_json(${label})::text || ',"object_type":' || to_json(${type})::text || ',"objects":[' || coalesce(${list}, '') || ']}'`;
  const to = objects("destination", "source");
  const from = objects("source", "destination");
  const sides = `CASE WHEN rel_r.type LIKE 'symmetric-%' THEN ${side("peer", sideLabelSql(ctx, "source", peers), "rel_r.source_type",
    `concat_ws(',', CASE WHEN rel_r.source_type = ${key} THEN ${to} END, CASE WHEN rel_r.destination_type = ${key} THEN ${from} END)`)} ` +
    `ELSE CASE WHEN rel_r.destination_type = ${key} THEN ${side("source", sideLabelSql(ctx, "destination", peers), "rel_r.source_type", from)} ELSE '' END || ` +
    `CASE WHEN rel_r.source_type = ${key} THEN ${side("destination", sideLabelSql(ctx, "source", peers), "rel_r.destination_type", to)} ELSE '' END END`;
  const entry = `to_json(rel_r.slug)::text || ':{"id":' || to_json(rel_r.id)::text || ',"url":' || ${urlStart(API_URL_MARKER, `${defs.app}/${defs.route}/`)} || rel_r.id || '/","name":' || ` +
    `to_json(rel_r.name)::text || ',"type":' || to_json(rel_r.type)::text || ${sides} || '}'`;
  return `(SELECT '{' || coalesce(string_agg(${entry}, ',' ORDER BY ${javascriptKeyOrder("rel_r.slug")}, rel_r.name), '') || '}' ` +
    `FROM ${definitions} rel_r WHERE rel_r.source_type = ${key} OR rel_r.destination_type = ${key})`;
}

export function relationshipsSelect(ctx: ReadContext): string {
  const { definitions, associations } = tablesOf(ctx.index);
  const key = literal(ctx.model.key);
  const peers = peersOf(ctx);
  if (!peers.size) return "'[]'::json";
  const self = col(ctx.alias, "id");
  const objects = (end: "source" | "destination", own: "source" | "destination") => {
    const branches = relationshipModels(ctx).filter((t) => peers.has(t.key)).map((t) =>
      `WHEN ${literal(t.key)} THEN ${ctx.nestedObject(t, (a) => `${a}.id = rel_x.${end}_id`)}`);
    return `(SELECT coalesce(json_agg(json_build_object('type', rel_x.${end}_type, 'object', CASE rel_x.${end}_type ${branches.join(" ")} END) ` +
      `ORDER BY rel_x.id), '[]'::json) FROM ${associations} rel_x WHERE rel_x.relationship_id = rel_r.id AND rel_x.${own}_id = ${self})`;
  };
  return `(SELECT coalesce(json_agg(json_build_object(` +
    `'id', rel_r.id, 'name', rel_r.name, 'slug', rel_r.slug, 'type', rel_r.type, ` +
    `'source_type', rel_r.source_type, 'destination_type', rel_r.destination_type, ` +
    `'source_label', rel_r.source_label, 'destination_label', rel_r.destination_label, ` +
    `'to', CASE WHEN rel_r.source_type = ${key} THEN ${objects("destination", "source")} END, ` +
    `'from', CASE WHEN rel_r.destination_type = ${key} THEN ${objects("source", "destination")} END` +
    `) ORDER BY rel_r.name), '[]'::json) FROM ${definitions} rel_r WHERE rel_r.source_type = ${key} OR rel_r.destination_type = ${key})`;
}

export function relationshipsRender(ctx: ReadContext): Render {
  const renderers = new Map(relationshipModels(ctx).map((t) => [t.key, ctx.nestedRenderer(t)]));
  const definitions = ctx.index.model(ctx.index.api.relationships!.definitions);
  const objects = (list: Selected["to"], rctx: RenderContext) =>
    (list ?? []).filter((o) => o.object).map((o) => renderers.get(o.type)!(o.object!, rctx));
  return (value, rctx) => {
    const out: Record<string, unknown> = {};
    for (const r of (value ?? []) as Selected[]) {
      const entry: Record<string, unknown> = {
        id: r.id, url: `${rctx.apiUrl}${definitions.app}/${definitions.route}/${r.id}/`, name: r.name, type: r.type,
      };
      const side = (label: string, type: string, list: unknown[]) => ({ label, object_type: type, objects: list });
      if (isSymmetric(r)) {
        entry.peer = side(sideLabel(ctx.index, r, "peer"), r.source_type, [...objects(r.to, rctx), ...objects(r.from, rctx)]);
      } else {
        if (r.from) entry.source = side(sideLabel(ctx.index, r, "destination"), r.source_type, objects(r.from, rctx));
        if (r.to) entry.destination = side(sideLabel(ctx.index, r, "source"), r.destination_type, objects(r.to, rctx));
      }
      out[r.slug] = entry;
    }
    return out;
  };
}
