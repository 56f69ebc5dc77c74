// The custom fields defined for a model, read from their rows whenever a request needs them
// (one indexed statement): definitions change while servers run, so no process keeps them.
import { atOrBefore, type CustomFieldDefinitions } from "../../descriptor.js";
import { labelOf } from "../../kinds/content-types.js";
import { col, ident } from "../../query/sql.js";
import type { Db } from "../../kinds/types.js";
import { lookupsOf, oncePerTransaction } from "../../write/lookups.js";

export interface CustomFieldDefinition {
  name: string;
  /** The `slug` column where the API shows slug keys (`slugKeysSince`), else the name. */
  slug: string;
  label: string;
  type: string;
  required: boolean;
  filter_logic: string;
  default: unknown;
  validation_minimum: string | null;
  validation_maximum: string | null;
  validation_regex: string;
  /** Choice values in their order (weight, value). */
  choices: string[];
}

/** The column whose values key an object's custom fields in API `version`: `slug` from `slugKeysSince` on, else `name`. */
export function keyColumn(d: CustomFieldDefinitions, version: string, versions: string[]): "slug" | "name" {
  return d.slugKeysSince && atOrBefore(versions, d.slugKeysSince, version) ? "slug" : "name";
}

/** The definitions naming content type `label`, in Nautobot's order (weight, name), as SQL rows `d`. */
export function definitionsOf(d: CustomFieldDefinitions, labelSql: string): string {
  return `FROM ${ident(d.table)} d WHERE EXISTS (SELECT 1 FROM ${ident(d.contentTypes.table)} j JOIN ${ident(d.registry.table)} r ` +
    `ON r.id = ${col("j", d.contentTypes.target)} WHERE ${col("j", d.contentTypes.source)} = d.id AND ${labelOf(d.registry, "r")} = ${labelSql})`;
}

/** The statement reading the definitions of one content type, bound to its label (`?`). */
function definitionsSql(d: CustomFieldDefinitions): string {
  const choices = `(SELECT coalesce(json_agg(c.value ORDER BY c.weight, c.value), '[]'::json) FROM ${ident(d.choices.table)} c WHERE ${col("c", d.choices.field)} = d.id)`;
  return `SELECT d.name, ${d.slugKeysSince ? "d.slug" : "d.name AS slug"}, d.label, d.type, d.required, d.filter_logic, d."default", d.validation_minimum::text AS validation_minimum, ` +
    `d.validation_maximum::text AS validation_maximum, d.validation_regex, ${choices} AS choices ${definitionsOf(d, "?")} ORDER BY d.weight, d.name`;
}

export async function loadDefinitions(db: Db, d: CustomFieldDefinitions, label: string): Promise<CustomFieldDefinition[]> {
  return (await db.raw(definitionsSql(d), [label])).rows as CustomFieldDefinition[];
}

/** The definitions a write of `label` needs, read once per transaction, in the statement of the write's reference checks. */
export function writeDefinitions(db: Db, d: CustomFieldDefinitions, label: string): Promise<CustomFieldDefinition[]> {
  return oncePerTransaction(db, `custom-fields:${label}`, () => lookupsOf(db).rows<CustomFieldDefinition>(definitionsSql(d), [label]));
}
