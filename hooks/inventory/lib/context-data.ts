// Nautobot's config-context machinery shared by the models that have one (devices, virtual
// machines): ConfigContextModel.clean for their local data, ConfigContextSchemaValidationMixin
// for data that follows a schema, and ConfigContextQuerySet.get_for_object for the contexts
// that apply to an object.
import { readRow, Refusal, type HookDb, type StatementRows, ValidationError, dataProblem } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasConfigContextSchema } from "../../../generated/inventory/rows.js";

/** Refuses `data` (stored in `field`) when it does not follow the schema `schemaId` names. */
export async function checkAgainstSchema(db: HookDb, field: string, data: unknown, schemaId: unknown): Promise<void> {
  if (!schemaId) return;
  const schema = await readRow<ExtrasConfigContextSchema>(db, tables.extras.configcontextschema, schemaId);
  if (!schema) return;
  const problem = dataProblem(schema.data_schema as object, data);
  if (problem) throw new ValidationError({ [field]: [`Validation using the JSON Schema ${schema.name} failed.`, problem] });
}

/** Python's truthiness of a JSON value: what Nautobot's `if self.local_context_data` asks. */
const truthy = (v: unknown) => !(v == null || v === false || v === 0 || v === "" || (typeof v === "object" && Object.keys(v as object).length === 0));

/**
 * ConfigContextModel.clean for an object as it will be stored: local data is an object, a
 * schema needs data, and the data follows it.
 */
export async function checkLocalContext(db: HookDb, row: { local_context_data?: unknown; local_context_schema?: string | null }): Promise<void> {
  const { local_context_data: data, local_context_schema: schemaId } = row;
  if (truthy(data) && (typeof data !== "object" || Array.isArray(data))) {
    throw new Refusal({ local_context_data: 'JSON data must be in object form. Example: {"foo": 123}' });
  }
  if (schemaId && !truthy(data)) throw new Refusal({ local_context_schema: "Local context data must exist for a schema to be applied." });
  await checkAgainstSchema(db, "local_context_data", data, schemaId);
}

/**
 * What an object offers each of a config context's assignments: SQL expressions over its row
 * (null when the object has no such thing, so only contexts without that assignment match).
 * `armature_context_data` takes regions (with ancestors) from the site, location ancestors
 * from the location, the cluster group from the cluster and the tenant group from the tenant.
 */
export interface ContextSubject {
  site: string | null;
  location: string | null;
  role: string | null;
  deviceType: string | null;
  platform: string | null;
  cluster: string | null;
  tenant: string | null;
  /** The object's id and its type as tag assignments name it (`dcim.device`). */
  id: string;
  objectType: string;
}

/**
 * An object's subject (spec/inventory/extras/config-context.ts `armature_context_data`): what
 * it offers each assignment, as text. Its tags are read only where some context has tags.
 */
function subjectSql(s: ContextSubject): string {
  const tags = tables.dcim.device.links.tags;
  const tagIds = `CASE WHEN EXISTS (SELECT FROM ${tables.extras.configcontext.links.tags.table}) THEN ` +
    `(SELECT string_agg(a.${tags.target}::text, ',') FROM ${tags.table} a WHERE a.${tags.type} = '${s.objectType}' AND a.${tags.source} = ${s.id}) END`;
  return `concat(${[s.site, s.location, s.role, s.deviceType, s.platform, s.cluster, s.tenant, tagIds].map((v) => v ?? "NULL").join(", '|', ")})`;
}

/**
 * The SQL of an object's config_context (get_config_context): every active context that
 * applies to it, deep-merged by weight and name, then its local data on top (when it has
 * any), in the read's own statement. The config context spec's `armature_context_data` matches
 * and merges for the object's subject; where the object is one of the statement's many, each
 * only writes its subject, and each distinct subject is matched and merged once for all (a
 * page of a thousand devices has a few; `armature_context_merges`), which costs the same
 * however many contexts there are.
 */
export function configContextSql(s: ContextSubject, localData: string, rows?: StatementRows): string {
  let merged: string;
  if (rows) {
    const subject = rows.once(subjectSql(s));
    merged = `(${rows.whole(`armature_context_merges(${subject})`)} -> ${subject})`;
  } else {
    merged = `armature_context_data(${subjectSql(s)})`;
  }
  return `CASE WHEN ${localData} IS NULL THEN ${merged} ELSE armature_deepmerge(${merged}, ${localData}) END`;
}
