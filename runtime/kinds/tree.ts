// A tree model's parent column, for the kinds that walk parent links.
import type { ModelDescriptor, TreeParentField } from "../descriptor.js";
import { col, ident } from "../query/sql.js";

export function parentColumn(m: ModelDescriptor): string {
  const parent = m.fields.find((f): f is TreeParentField => f.kind === "treeParent");
  if (!parent) throw new Error(`${m.key} is not a tree`);
  return parent.column;
}

/** An SQL array of the ids `roots` (a SELECT of ids of `m`) gives, and of every row below them. */
export function subtreeIds(m: ModelDescriptor, roots: string): string {
  return `ARRAY(WITH RECURSIVE sub AS (${roots} UNION ALL SELECT c.id FROM ${ident(m.table)} c JOIN sub ON ${col("c", parentColumn(m))} = sub.id) SELECT id FROM sub)`;
}
