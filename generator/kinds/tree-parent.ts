// A tree model's parent: a nullable link to the same model; deleting a node deletes its subtree.
import type { TreeParentField } from "../../runtime/descriptor.js";
import { linkColumn, linkFilters } from "./fk.js";
import { nullable, relatedWrite, type GeneratorFieldKind } from "./types.js";

export const treeParent: GeneratorFieldKind<TreeParentField> = {
  schema: (f, ctx) => linkColumn(f, ctx, true, "cascade"),
  readSchema: (f, { nestedRef, idOf }) => nullable(f.asId ? idOf(f.target) : nestedRef(f.target), true),
  writeSchema: (f, { idOf }) => nullable(relatedWrite(idOf(f.target)), true),
  filters: (f, add) => linkFilters(f.name, add),
};
