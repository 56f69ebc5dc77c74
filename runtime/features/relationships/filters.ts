// The `cr_<slug>__source|destination|peer` filters (Nautobot's RelationshipFilter): the rows
// linked by that relationship to any of the objects given (by id) at the other end. Offered
// for the sides of the relationships of the model that are not hidden; the definitions are
// read in the list's own statement, so a new relationship filters at once on every instance.
import type { DynamicFilterProvider, Planned } from "../../query/filters.js";
import { firstValue, isUuid } from "../../query/filters.js";
import type { ModelIndex } from "../../models.js";
import type { ModelDescriptor } from "../../descriptor.js";
import { literal } from "../../query/sql.js";
import type { Problem } from "../../problems.js";
import { tablesOf } from "./definitions.js";
import { relationshipModels } from "./read.js";

const PARAM = /^cr_(.+)__(source|destination|peer)$/;

export function relationshipFilters(index: ModelIndex): DynamicFilterProvider {
  const { definitions, associations } = tablesOf(index);
  const models = relationshipModels({ index });
  // Nothing is read ahead: whether a slug names a relationship of the model is a check of the plan.
  return async (_db, m, params, { strict }) => {
    if (!m.fields.some((f) => f.kind === "relationships") || !params.some((p) => PARAM.test(p))) return null;
    return { owns: (param) => PARAM.test(param), plan: (param, raw) => plan(m, param, raw, strict) };
  };

  function plan(m: ModelDescriptor, param: string, raw: string[], strict: boolean): Planned | Problem[] {
    const [, slug, side] = PARAM.exec(param)!;
    const key = literal(m.key);
    const symmetric = "rel_f.type LIKE 'symmetric-%'";
    const applies = {
      destination: `NOT (${symmetric}) AND rel_f.source_type = ${key} AND NOT rel_f.source_hidden`,
      source: `NOT (${symmetric}) AND rel_f.destination_type = ${key} AND NOT rel_f.destination_hidden`,
      peer: `${symmetric} AND ((rel_f.source_type = ${key} AND NOT rel_f.source_hidden) OR (rel_f.destination_type = ${key} AND NOT rel_f.destination_hidden))`,
    }[side]!;
    const relationship = `SELECT rel_f.id, rel_f.source_type, rel_f.destination_type FROM ${definitions} rel_f WHERE rel_f.slug = ${literal(slug).replace(/\?/g, "\\?")} AND ${applies}`;
    const checks: NonNullable<Planned["checks"]> = strict
      ? [{ sql: `SELECT 'x' WHERE NOT EXISTS (${relationship})`, bindings: [], problem: () => ({ code: "unknown_filter" }) }]
      : [];
    const values = raw.filter((v) => v !== "");
    if (!values.length) return { where: () => undefined, checks };
    const bad = values.find((v) => !isUuid(v));
    if (bad) return [{ code: "filter_invalid_value", value: bad }];
    const otherType = side === "source" ? "rel.source_type" : "rel.destination_type";
    const known = models.map((t) => `(${otherType} = ${literal(t.key)} AND EXISTS (SELECT 1 FROM ${t.table} o WHERE o.id = u.v::uuid))`).join(" OR ");
    checks.push({
      ...firstValue(values, `NOT EXISTS (SELECT 1 FROM (${relationship}) rel WHERE ${known})`),
      problem: (value) => ({ code: "filter_invalid_choice", value }),
    });
    const ids = `ARRAY[${values.map((v) => literal(v.toLowerCase())).join(", ")}]::uuid[]`;
    const linked = (mine: string, theirs: string, type: string) =>
      `SELECT x.${mine}_id FROM ${associations} x JOIN (${relationship}) rel ON x.relationship_id = rel.id ` +
      `WHERE x.${theirs}_id = ANY(${ids}) AND x.${mine}_type = rel.${type}`;
    const condition = side === "destination" ? linked("source", "destination", "source_type")
      : side === "source" ? linked("destination", "source", "destination_type")
        : `${linked("destination", "source", "destination_type")} UNION ${linked("source", "destination", "source_type")}`;
    const where = strict ? `t0.id IN (${condition})` : `(t0.id IN (${condition}) OR NOT EXISTS (${relationship}))`;
    return { where: (qb) => qb.whereRaw(where), checks };
  }
}
