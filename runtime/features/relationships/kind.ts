// Relationships defined at run time (runtime/relationships/): read in the row's statement,
// written after the row is saved (the associations replace those of each side given), and
// removed with the row.
import type { RelationshipsField } from "../../descriptor.js";
import { relationshipsJson, relationshipsRender, relationshipsSelect } from "./read.js";
import { dropAssociations, requiredOnCreate, requiredOnUpdate, requiredRelationships, writeRelationships } from "./write.js";
import type { RuntimeFieldKind } from "../../kinds/types.js";

export const relationships: RuntimeFieldKind<RelationshipsField> = {
  read: (_f, ctx) => relationshipsSelect(ctx),
  render: (_f, ctx) => relationshipsRender(ctx),
  json: (_f, ctx) => relationshipsJson(ctx),
  // Asked for as the write starts, so the read rides with its reference checks.
  prefetch: (_f, ctx) => requiredRelationships(ctx),
  write: (_f, value, ctx) => writeRelationships(value, ctx),
  checksOwnValue: true,
  onCreate: (_f, ctx) => requiredOnCreate(ctx),
  onUpdate: (_f, ctx) => requiredOnUpdate(ctx),
  onDelete: (f, db, model, ids) => dropAssociations(db, f.associations, model, ids),
  options: { type: () => "field" },
};
