// A tree model's parent: a nullable link to the same model; deleting a node deletes its subtree.
import type { TreeParentField } from "../../runtime/descriptor.js";
import { linkColumn, linkFilters } from "./fk.js";
import { nullable, RELATED_WRITE, type GeneratorFieldKind } from "./types.js";

export const treeParent: GeneratorFieldKind<TreeParentField> = {
  schema: (f, ctx) => linkColumn(f, ctx, true, "cascade"),
  readSchema: (f, { nestedRef }) => nullable(f.asId ? { type: "string", format: "uuid" } : nestedRef(f.target), true),
  writeSchema: () => nullable(RELATED_WRITE, true),
  filters: (f, add) => linkFilters(f.name, add),
};
