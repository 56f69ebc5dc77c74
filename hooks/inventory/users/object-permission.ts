// Nautobot's checks of an object permission that its schema leaves unworded: an action list
// that is empty or holds an empty action (Django's JSONArrayField validation), and constraints
// that are neither an object of lookups nor a list of them (what the permission backend reads).
// Whether the lookups name real fields is the server's check, made against the object types.
// Also the `object_types` filters: permissions for any of the content types named by id.
import { type ContentTypesField, Refusal, type MethodQuery, type SaveEvent, col, ident } from "../../../runtime/hooks.js";
import type { UsersObjectPermission } from "../../../generated/inventory/rows.js";

const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);

export function beforeSave({ values }: SaveEvent<UsersObjectPermission>): void {
  const problems: Record<string, string> = {};
  const { actions, constraints } = values;
  if (Array.isArray(actions) && (actions.length === 0 || actions.includes(""))) problems.actions = "This field cannot be blank.";
  if (constraints !== undefined && constraints !== null) {
    if (!isObject(constraints) && !(Array.isArray(constraints) && constraints.every(isObject))) {
      problems.constraints = "Enter an object of lookups, a list of such objects, or null.";
    }
  }
  if (Object.keys(problems).length) throw new Refusal(problems);
}

function ofTypes({ alias, model, ids }: MethodQuery): string {
  const t = model.fields.find((f): f is ContentTypesField => f.kind === "contentTypes" && f.name === "object_types")!.through;
  return `EXISTS (SELECT 1 FROM ${ident(t.table)} j WHERE ${col("j", t.source)} = ${col(alias, "id")} AND ${col("j", t.target)} = ANY(${ids}))`;
}

export const filters = {
  object_types: ofTypes,
  object_types__n: (q: MethodQuery) => `NOT ${ofTypes(q)}`,
};
