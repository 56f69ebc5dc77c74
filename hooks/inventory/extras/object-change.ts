// The object changes' `changed_object_type_id` filters: changes of objects of the content types
// named by id, as Nautobot's filter over the foreign key (here the type is kept as its label).
import { type ContentTypeField, type MethodQuery, labelOf, col, ident } from "../../../runtime/hooks.js";

function ofTypes({ alias, model, ids }: MethodQuery): string {
  const type = model.fields.find((f): f is ContentTypeField => f.kind === "contentType" && f.name === "changed_object_type")!;
  const r = type.registry!;
  return `${col(alias, type.column)} IN (SELECT ${labelOf(r, "r")} FROM ${ident(r.table)} r WHERE r.id = ANY(${ids}))`;
}

export const filters = {
  changed_object_type_id: ofTypes,
  changed_object_type_id__n: (q: MethodQuery) => `NOT (${ofTypes(q)})`,
};
