// Nautobot 1.5's DynamicGroup: clean() (a content type fixed once created, a filter that is a
// dictionary the content type's filter set accepts, worded as its REST list words a bad
// query), delete() (refused while the group is another's child), the `q` search, and the
// `members` action, whose rows one list statement selects (runtime/query/membership.ts).
import {
  ValidationError, type Dependent, readRow, Refusal, type ActionEvent, type DeletingEvent, type MethodQuery, type SaveEvent, filterProblems,
  membershipPlan, type MemberSet, type SetOperator, col, ident, containsPattern, textSearch,
} from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasDynamicGroup } from "../../../generated/inventory/rows.js";

// Read when called: the generator loads this module before it writes the tables.
const names = () => ({ groups: tables.extras.dynamicgroup, memberships: tables.extras.dynamicgroupmembership });

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export async function beforeSave({ db, index, before, after, changed }: SaveEvent<ExtrasDynamicGroup>): Promise<void> {
  if (before && changed.has("content_type")) throw new Refusal({ content_type: "ContentType cannot be changed once created" });
  const filter = after.filter ?? {};
  if (!isDict(filter)) throw new Refusal({ filter: "Filter must be a dict" });
  const m = index.byKey.get(after.content_type!);
  if (!m) return;
  const problems = await filterProblems(db, index, m, filter);
  if (problems) throw new ValidationError(problems);
}

/** DynamicGroup.delete: a group stays while it is a child of others, which its refusal names. */
export async function protectedBy({ db, rows }: DeletingEvent<ExtrasDynamicGroup>): Promise<Dependent[]> {
  const { groups, memberships } = names();
  const G = groups.columns, M = memberships.columns;
  const ids = (await rows()).map((r) => r.id);
  const parents: Array<{ id: string; name: string }> = await db(`${groups.table} as g`)
    .distinct(`g.${G.id} as id`, `g.${G.name} as name`)
    .join(`${memberships.table} as m`, `m.${M.parent_group}`, `g.${G.id}`)
    .whereIn(`m.${M.group}`, ids)
    .orderBy("name");
  return parents.map((p) => ({ display: p.name, id: p.id }));
}

// SearchFilter: any of the fields, or the content type's app label or model name, contains the value.
function search({ alias, values }: MethodQuery): string {
  const G = names().groups.columns;
  const type = col(alias, G.content_type);
  const fields = [col(alias, G.name), col(alias, G.slug), col(alias, G.description), `split_part(${type}, '.', 1)`, `split_part(${type}, '.', 2)`];
  return textSearch(values!, (v) => fields.map((f) => `${f} ILIKE ${containsPattern(v)}`).join(" OR "));
}

export const filters = { q: search };

interface Link { parent: string; child: string; operator: SetOperator; filter: Record<string, unknown> }

/**
 * The group's members as Nautobot 1.5 computes them: its own filter, and when it has children,
 * each child's members folded in by the child's operator in weight order. A child with a filter
 * gives what its filter selects; one without gives its own children's filters folded the same
 * way, one level down and no further (DynamicGroup.generate_members_query).
 */
function memberSet(group: ExtrasDynamicGroup, links: Link[]): MemberSet {
  const under = (id: string) => links.filter((l) => l.parent === id);
  const asChild = (l: Link): MemberSet => (Object.keys(l.filter).length
    ? { filter: l.filter, steps: [] }
    : { filter: {}, steps: under(l.child).map((g) => ({ operator: g.operator, set: { filter: g.filter, steps: [] } })) });
  return { filter: group.filter as Record<string, unknown>, steps: under(group.id).map((l) => ({ operator: l.operator, set: asChild(l) })) };
}

async function members({ db, id, engine, list }: ActionEvent): Promise<unknown> {
  const { groups, memberships } = names();
  const G = groups.columns, M = memberships.columns;
  const group = (await readRow<ExtrasDynamicGroup>(db, groups, id))!;
  const m = engine.index.byKey.get(group.content_type)!;
  // The memberships under the group and under its children, in the order Nautobot folds them.
  const links: Link[] = (await db.raw(
    `SELECT m.${ident(M.parent_group)} AS parent, m.${ident(M.group)} AS child, m.${ident(M.operator)} AS operator, g.${ident(G.filter)} AS filter
     FROM ${ident(memberships.table)} m JOIN ${ident(groups.table)} g ON g.${ident(G.id)} = m.${ident(M.group)}
     WHERE m.${ident(M.parent_group)} = ? OR m.${ident(M.parent_group)} IN (SELECT ${ident(M.group)} FROM ${ident(memberships.table)} WHERE ${ident(M.parent_group)} = ?)
     ORDER BY m.${ident(M.weight)}, g.${ident(G.name)}`,
    [id, id],
  )).rows.map((l: Link) => ({ ...l, filter: isDict(l.filter) ? l.filter : {} }));
  const plan = await membershipPlan(db, engine.index, m, memberSet(group, links));
  // Nautobot serializes members with the model's plain serializer: no fields the list adds (config_context).
  const plain = m.fields.filter((f) => f.kind === "computed" && f.excludable).map((f) => f.name);
  return list(m, plan, plain);
}

export const actions = { members };
