// Nautobot's Relationship.clean: the filters are dictionaries of the side model's filter
// parameters with valid values; a symmetric relationship has one model, one label, one hidden
// flag and one filter on both ends and is never required; and a relationship with associations
// keeps its type and its models.
import { ValidationError, type Leaf, type SaveEvent, filterValueErrors } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasRelationship } from "../../../generated/inventory/rows.js";

/** A relationship as it will be stored. */
type Row = Partial<ExtrasRelationship>;

const SIDES = ["source", "destination"] as const;

/** What a new row holds for the fields a create leaves out (the columns' defaults). */
const DEFAULTS: Row = {
  type: "many-to-many", required_on: "", source_label: "", destination_label: "", source_hidden: false, destination_hidden: false,
  source_filter: null, destination_filter: null,
};

/** Python's falsiness, which lets Nautobot skip a side's filter (None, {}, [], "", 0, False). */
const falsy = (v: unknown) => v === null || v === undefined || v === "" || v === 0 || v === false || (typeof v === "object" && !Object.keys(v!).length);

function filterErrors({ index }: SaveEvent<ExtrasRelationship>, r: Row): Record<string, Leaf[]> {
  const errors: Record<string, Leaf[]> = {};
  for (const side of SIDES) {
    const filter = r[`${side}_filter`];
    if (falsy(filter)) continue;
    const m = index.byKey.get(r[`${side}_type`]!);
    if (!m) continue;
    const label = `${m.app}.${m.name}`;
    if (typeof filter !== "object" || Array.isArray(filter)) {
      errors[`${side}_filter`] = [`Filter for ${label} must be a dictionary`];
      continue;
    }
    const dict = filter as Record<string, unknown>;
    const valueErrors = filterValueErrors(index, m, dict);
    const params = new Set(m.filters.map((f) => f.param));
    const messages: Leaf[] = [
      ...Object.entries(valueErrors).filter(([k]) => params.has(k)).map(([k, v]) => ({ code: "filter_parameter_invalid" as const, param: k, problems: v })),
      ...Object.keys(dict).filter((k) => !params.has(k)).map((k) => `'${k}' is not a valid filter parameter for ${label} object`),
    ];
    // Nautobot checks one side at a time and stops at the first with errors.
    if (messages.length) {
      errors[`${side}_filter`] = messages;
      break;
    }
  }
  return errors;
}

function symmetricErrors(r: Row, values: SaveEvent<ExtrasRelationship>["values"]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (r.source_type !== r.destination_type) errors.destination_type = ["Must match source_type for a symmetric relationship"];
  if (r.source_label !== r.destination_label) {
    if (!r.source_label) values.source_label = r.source_label = r.destination_label;
    else if (!r.destination_label) values.destination_label = r.destination_label = r.source_label;
    else errors.destination_label = ["Must match source_label for a symmetric relationship"];
  }
  if (Boolean(r.source_hidden) !== Boolean(r.destination_hidden)) errors.destination_hidden = ["Must match source_hidden for a symmetric relationship"];
  if (JSON.stringify(r.source_filter ?? null) !== JSON.stringify(r.destination_filter ?? null)) {
    if (!r.source_filter) values.source_filter = r.source_filter = r.destination_filter;
    else if (!r.destination_filter) values.destination_filter = r.destination_filter = r.source_filter;
    else errors.destination_filter = ["Must match source_filter for a symmetric relationship"];
  }
  if (r.required_on) errors.required_on = ["Symmetric relationships cannot be marked as required."];
  return errors;
}

/** Nautobot refuses these with a plain ValidationError (the `__all__` key). */
async function lockedErrors({ db, id, changed }: SaveEvent<ExtrasRelationship>): Promise<string | null> {
  const associations = tables.extras.relationshipassociation;
  if (id === null || !(await db(associations.table).where(associations.columns.relationship, id).first("id"))) return null;
  if (changed.has("type")) {
    return "Not supported to change the type of the relationship when some associations are present in the database, delete all associations first before modifying the type.";
  }
  if (changed.has("source_type")) {
    return "Not supported to change the type of the source object when some associations are present in the database, delete all associations first before modifying the source type.";
  }
  if (changed.has("destination_type")) {
    return "Not supported to change the type of the destination object when some associations are present in the database, delete all associations first before modifying the destination type.";
  }
  return null;
}

export async function beforeSave(event: SaveEvent<ExtrasRelationship>): Promise<void> {
  const { values, before } = event;
  // A copy: the symmetric rule fills in what one side leaves blank, in it and in the values.
  const r: Row = { ...DEFAULTS, ...before, ...values };
  const filters = filterErrors(event, r);
  if (Object.keys(filters).length) throw new ValidationError(filters);
  if (r.type!.startsWith("symmetric-")) {
    const errors = symmetricErrors(r, values);
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }
  const locked = await lockedErrors(event);
  if (locked) throw new ValidationError({ __all__: [locked] });
}
