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
import { col, literal } from "../../query/sql.js";
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

export function relationshipsSelect(ctx: ReadContext): string {
  const { definitions, associations } = tablesOf(ctx.index);
  const key = literal(ctx.model.key);
  const peers = new Set(ctx.assume(`relationship-peers:${ctx.model.key}`, peersProbe(definitions, key)).split(",").filter(Boolean));
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
