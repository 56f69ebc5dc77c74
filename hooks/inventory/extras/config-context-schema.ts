// Nautobot's ConfigContextSchema.clean: the data schema is itself a valid JSON Schema (draft 7).
import { jsonValue, Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { schemaProblem } from "../../../runtime/write/json-schema.js";

export function beforeSave({ values }: SaveEvent): void {
  if (!("data_schema" in values)) return;
  const schema = jsonValue(values.data_schema);
  const problem = schemaProblem(schema);
  if (problem) throw new Refusal({ data_schema: problem });
}
