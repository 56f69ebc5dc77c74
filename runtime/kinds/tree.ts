// A tree model's parent column, for the kinds that walk parent links.
import type { ModelDescriptor, TreeParentField } from "../descriptor.js";

export function parentColumn(m: ModelDescriptor): string {
  const parent = m.fields.find((f): f is TreeParentField => f.kind === "treeParent");
  if (!parent) throw new Error(`${m.key} is not a tree`);
  return parent.column;
}
