// Nautobot's RelationshipAssociation.clean, which the relationship rules module states once
// for this endpoint and for the `relationships` written with any object.
import { columns, type MethodQuery, type SaveEvent, checkAssociation } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasRelationshipAssociation } from "../../../generated/inventory/rows.js";

export async function beforeSave({ db, index, id, after: a }: SaveEvent<ExtrasRelationshipAssociation>): Promise<void> {
  // The relationship's stored row, as the runtime's association rules take it.
  const relationship = await db(index.model(index.api.relationships!.definitions).table).where({ id: a.relationship }).first();
  await checkAssociation(db, index, {
    id: id === null ? null : String(id),
    relationship,
    source_type: a.source_type!,
    source_id: String(a.source_id).toLowerCase(),
    destination_type: a.destination_type!,
    destination_id: String(a.destination_id).toLowerCase(),
  });
}

export const filters = {
  // Links of symmetric relationships only, at either end.
  peer_id: ({ alias, values }: MethodQuery) => {
    const [a, { table, columns: r }] = [columns(tables.extras.relationshipassociation, alias), tables.extras.relationship];
    return `(${a.source_id} = ANY(${values}) OR ${a.destination_id} = ANY(${values})) AND ` +
      `${a.relationship} IN (SELECT id FROM ${table} WHERE ${r.type} LIKE 'symmetric-%')`;
  },
};
