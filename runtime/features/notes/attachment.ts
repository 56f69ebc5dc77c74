// Where a note says what it is attached to: the generic link of the note model that reaches
// `target`, its two columns and the fields a write names them by.
import { storedColumn, type GenericField, type ModelDescriptor } from "../../descriptor.js";

export interface Attachment { type: string; id: string; typeColumn: string; idColumn: string }

export function attachment(notes: ModelDescriptor, target: ModelDescriptor): Attachment {
  const link = notes.fields.find((f): f is GenericField => f.kind === "generic" && f.targets.includes(target.key));
  if (!link) throw new Error(`${notes.key} has no generic link to ${target.key}`);
  const named = (column: string) => notes.fields.find((f) => f.kind !== "generic" && storedColumn(f) === column)!.name;
  return { type: named(link.typeColumn), id: named(link.idColumn), typeColumn: link.typeColumn, idColumn: link.idColumn };
}
