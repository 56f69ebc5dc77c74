// Nautobot's ConfigContextSchema.clean: the data schema is itself a valid JSON Schema (draft 7).
import { Refusal, type SaveEvent, schemaProblem } from "../../../runtime/hooks.js";
import type { ExtrasConfigContextSchema } from "../../../generated/inventory/rows.js";

export function beforeSave({ values }: SaveEvent<ExtrasConfigContextSchema>): void {
  if (!("data_schema" in values)) return;
  const problem = schemaProblem(values.data_schema);
  if (problem) throw new Refusal({ data_schema: problem });
}
