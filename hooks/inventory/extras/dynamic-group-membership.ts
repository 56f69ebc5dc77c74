// Nautobot 1.5's DynamicGroupMembership.clean: a parent group has a filter or children, not
// both; both groups are of one content type; and no group becomes its own ancestor. The `q`
// search over the operator and both groups' names and slugs.
import { readRow, Refusal, type MethodQuery, type SaveEvent, col, ident, containsPattern, textSearch } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasDynamicGroup, ExtrasDynamicGroupMembership } from "../../../generated/inventory/rows.js";

// Read when called: the generator loads this module before it writes the tables.
const names = () => ({ groups: tables.extras.dynamicgroup, memberships: tables.extras.dynamicgroupmembership });

/** Python's truthiness of a stored filter. */
const truthy = (v: unknown) => v !== null && v !== undefined && !(typeof v === "object" && !Object.keys(v as object).length);

export async function beforeSave({ db, after }: SaveEvent<ExtrasDynamicGroupMembership>): Promise<void> {
  const { groups, memberships } = names();
  const M = memberships.columns;
  const parent = (await readRow<ExtrasDynamicGroup>(db, groups, after.parent_group))!;
  const group = (await readRow<ExtrasDynamicGroup>(db, groups, after.group))!;
  if (truthy(parent.filter)) {
    throw new Refusal({ parent_group: "A parent group may have either a filter or child groups, but not both. Clear the parent filter and try again." });
  }
  if (parent.content_type !== group.content_type) throw new Refusal({ group: "ContentType for group and parent_group must match" });
  if (parent.id === group.id) throw new Refusal({ group: "Cannot add group as a child of itself" });
  // The parent's ancestors, every path up (get_ancestors).
  const { rows } = await db.raw(
    `WITH RECURSIVE up(id) AS (
       SELECT ${ident(M.parent_group)} FROM ${ident(memberships.table)} WHERE ${ident(M.group)} = ?
       UNION SELECT m.${ident(M.parent_group)} FROM ${ident(memberships.table)} m JOIN up ON m.${ident(M.group)} = up.id
     ) SELECT 1 FROM up WHERE id = ? LIMIT 1`,
    [parent.id, group.id],
  );
  if (rows.length) throw new Refusal({ group: "Cannot add ancestor as a child" });
}

// SearchFilter: the operator, or either group's name or slug, contains the value.
function search({ alias, values }: MethodQuery): string {
  const { groups, memberships } = names();
  const G = groups.columns, M = memberships.columns;
  return textSearch(values!, (v) => {
    const pattern = containsPattern(v);
    const named = (fk: string) =>
      `EXISTS (SELECT 1 FROM ${ident(groups.table)} g WHERE g.${ident(G.id)} = ${col(alias, fk)} AND (g.${ident(G.name)} ILIKE ${pattern} OR g.${ident(G.slug)} ILIKE ${pattern}))`;
    return `${col(alias, M.operator)} ILIKE ${pattern} OR ${named(M.group)} OR ${named(M.parent_group)}`;
  });
}

export const filters = { q: search };
