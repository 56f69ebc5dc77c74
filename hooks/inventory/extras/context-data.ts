// Nautobot's ConfigContextSchemaValidationMixin: data follows the schema chosen for it, and
// the refusal names the schema and the first problem.
import { jsonValue, type HookDb } from "../../../runtime/hooks.js";
import { ValidationError } from "../../../runtime/errors.js";
import { dataProblem } from "../../../runtime/write/json-schema.js";

/** Refuses `data` (stored in `field`) when it does not follow the schema `schemaId` names. */
export async function checkAgainstSchema(db: HookDb, field: string, data: unknown, schemaId: unknown): Promise<void> {
  if (!schemaId) return;
  const schema: Record<string, any> | undefined = await db("extras_configcontextschema").where({ id: schemaId }).first();
  if (!schema) return;
  const parsed = jsonValue(data);
  const body = jsonValue(schema.data_schema) as object;
  const problem = dataProblem(body, parsed);
  if (problem) throw new ValidationError({ [field]: [`Validation using the JSON Schema ${schema.name} failed.`, problem] });
}
