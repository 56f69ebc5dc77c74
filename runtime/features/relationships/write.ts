// The `relationships` key of a write (Nautobot's RelationshipsDataField and
// RelationshipModelSerializerMixin): each side given replaces that side's associations, inside
// the write's transaction; relationships required on this model must be satisfied.
import { randomUUID } from "node:crypto";
import { modelRoute, type ModelDescriptor } from "../../descriptor.js";
import { ValidationError } from "../../errors.js";
import { FieldProblem, isPlainObject, type Db, type WriteContext } from "../../kinds/types.js";
import type { ModelIndex } from "../../models.js";
import type { Leaf, Problem } from "../../problems.js";
import { lookupsOf, oncePerTransaction } from "../../write/lookups.js";
import { checkAssociation } from "./associations.js";
import { hasMany, isSymmetric, relationshipText, relationshipsOf, tablesOf, type Relationship, type Side } from "./definitions.js";

/** The objects asked for, per relationship and per side at the other end (ids). */
type Wanted = Map<Relationship, Map<Side, string[]>>;

const given = new WeakMap<WriteContext, Wanted>();

const modelLabel = (m: ModelDescriptor) => `${m.app}.${m.name}`;

/** The sides at the other end a row of `m` may set for `r`. */
function otherSides(r: Relationship, m: ModelDescriptor): Side[] {
  if (isSymmetric(r)) return ["peer"];
  return [...(r.destination_type === m.key ? ["source" as const] : []), ...(r.source_type === m.key ? ["destination" as const] : [])];
}

const typeOf = (r: Relationship, side: Side) => (side === "destination" ? r.destination_type : r.source_type);

export async function writeRelationships(value: unknown, ctx: WriteContext): Promise<void> {
  if (!isPlainObject(value)) throw new FieldProblem({ code: "not_a_dict", given: value });
  const m = ctx.model;
  const all = await relationshipsOf(ctx.db, ctx.index, m);
  const slugs = new Set(all.map((r) => r.slug));
  for (const slug of Object.keys(value)) if (!slugs.has(slug)) throw new FieldProblem({ code: "not_a_relationship", slug, model: modelLabel(m) });
  const wanted: Wanted = new Map();
  for (const r of all) {
    const data = value[r.slug];
    if (data === undefined) continue;
    const sides = new Map<Side, string[]>();
    for (const side of ["source", "destination", "peer"] as const) {
      const sideData = isPlainObject(data) ? data[side] : undefined;
      if (sideData === undefined) continue;
      if (!otherSides(r, m).includes(side)) throw new FieldProblem({ code: "invalid_relationship_side", side, relationship: relationshipText(r), model: modelLabel(m) });
      if (!isPlainObject(sideData) || !("objects" in sideData)) throw new FieldProblem({ code: "relationship_objects_missing", slug: r.slug, side });
      const objects = sideData.objects;
      if (!Array.isArray(objects)) throw new FieldProblem({ code: "relationship_objects_not_a_list" });
      if (objects.length > 1 && !hasMany(r, side)) throw new FieldProblem({ code: "relationship_too_many", relationship: relationshipText(r), side });
      const ids: string[] = [];
      for (const o of objects) ids.push(String(await ctx.resolve(typeOf(r, side), o, false)));
      sides.set(side, ids);
    }
    wanted.set(r, sides);
  }
  given.set(ctx, wanted);
}

/** On create: the required relationships are checked, and what was given is saved. */
export function requiredOnCreate(ctx: WriteContext): void {
  ctx.afterSave.push((id) => settle(ctx, String(id), true));
}

/** On update: the same, where the write gave relationships or the row has none it must have. */
export function requiredOnUpdate(ctx: WriteContext): void {
  ctx.afterSave.push((id) => settle(ctx, String(id), false));
}

async function settle(ctx: WriteContext, id: string, created: boolean): Promise<void> {
  const wanted = given.get(ctx) ?? new Map();
  const errors = await requiredErrors(ctx, id, wanted, created);
  if (Object.keys(errors).length) throw new ValidationError({ relationships: errors });
  try {
    for (const [r, sides] of wanted) for (const [side, ids] of sides) await replace(ctx, r, id, side, ids);
  } catch (e) {
    if (e instanceof ValidationError && !Array.isArray(e.errors)) {
      throw new ValidationError({ relationships: Object.values(e.errors).flat() as Leaf[] });
    }
    throw e;
  }
}

/**
 * The relationships a row of the model must take part in, read once per transaction, in the
 * statement of the write's reference checks when asked for as the write starts.
 */
export function requiredRelationships(ctx: WriteContext): Promise<Relationship[]> {
  const { db, index, model: m } = ctx;
  const { definitions } = tablesOf(index);
  return oncePerTransaction(db, `required-relationships:${m.key}`, () => {
    const q = db(definitions).where((w) => w.where({ source_type: m.key, required_on: "source" }).orWhere({ destination_type: m.key, required_on: "destination" }))
      .orderBy("name").toSQL();
    return lookupsOf(db).rows<Relationship>(q.sql, [...q.bindings]);
  });
}

/** Nautobot's RelationshipModel.required_related_objects_errors, for the API. */
async function requiredErrors(ctx: WriteContext, id: string, wanted: Wanted, created: boolean): Promise<Record<string, Problem[]>> {
  const { db, index, model: m } = ctx;
  const { associations } = tablesOf(index);
  const required = await requiredRelationships(ctx);
  const errors: Record<string, Problem[]> = {};
  const keyGiven = given.has(ctx);
  for (const r of required) {
    if (isSymmetric(r)) continue;
    const opposite: Side = r.required_on === "source" ? "destination" : "source";
    const other = index.byKey.get(typeOf(r, opposite));
    if (!other) continue;
    const supplied = [...wanted].find(([x]) => x.id === r.id)?.[1].get(opposite);
    if (!created && !supplied && !keyGiven) {
      if (await db(associations).where({ relationship_id: r.id, [`${r.required_on}_id`]: id }).first("id")) continue;
    }
    const problems: Problem[] = [];
    if (!(await db(other.table).first("id"))) {
      problems.push({
        code: "relationship_required_none_exist", model: m.sentenceName, other: other.sentenceName, many: hasMany(r, opposite),
        url: `${index.api.basePath}${modelRoute(other)}/`,
      });
    }
    if (!supplied?.length) problems.push({ code: "relationship_required", slug: r.slug, side: opposite });
    if (problems.length) errors[r.slug] = problems;
  }
  return errors;
}

/** The associations of `r` at `id`, each with the object at the other end. */
async function existing(db: Db, index: ModelIndex, r: Relationship, id: string, side: Side): Promise<Array<{ id: string; peer: string }>> {
  const q = db(tablesOf(index).associations).where("relationship_id", r.id).orderBy("id");
  const rows: Array<Record<string, string>> = side === "peer"
    ? await q.where((w) => w.where("source_id", id).orWhere("destination_id", id))
    : await q.where(side === "destination" ? "source_id" : "destination_id", id);
  return rows.map((a) => ({ id: a.id, peer: String(a.source_id) === id ? String(a.destination_id) : String(a.source_id) }));
}

/** Makes the associations of one side exactly `ids`: new ones first (each checked), then the others go, as Nautobot does. */
async function replace(ctx: WriteContext, r: Relationship, id: string, side: Side, ids: string[]): Promise<void> {
  const { db, index } = ctx;
  const table = tablesOf(index).associations;
  const have = await existing(db, index, r, id, side);
  const peers = new Set(have.map((a) => a.peer));
  for (const other of ids.filter((x, i) => !peers.has(x) && ids.indexOf(x) === i)) {
    const [source_id, destination_id] = side === "source" ? [other, id] : [id, other];
    const row = { relationship_id: r.id, source_type: r.source_type, source_id, destination_type: r.destination_type, destination_id };
    await checkAssociation(db, index, { id: null, relationship: r, ...row });
    await db(table).insert({ id: randomUUID(), ...row });
  }
  const stale = have.filter((a) => !ids.includes(a.peer)).map((a) => a.id);
  if (stale.length) await db(table).whereIn("id", stale).del();
}

/** Deleting objects deletes the associations at either end (Nautobot's GenericRelations cascade). */
export async function dropAssociations(db: Db, table: string, m: ModelDescriptor, ids: Array<string | number>): Promise<void> {
  await db(table)
    .where((q) => q.where("source_type", m.key).whereIn("source_id", ids))
    .orWhere((q) => q.where("destination_type", m.key).whereIn("destination_id", ids))
    .del();
}
