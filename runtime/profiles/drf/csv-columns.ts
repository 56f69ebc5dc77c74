// The columns of a list exported as CSV, by Nautobot 2.x's rules (its NautobotCSVRenderer and
// BaseModelSerializer in CSV mode): the full object's fields less its links and nested maps,
// `name`, `display` and `id` first, a related object as its natural key in a `<field>__<key>`
// column, lists joined with commas, choices as their value, custom fields as `cf_<key>`.
// Takes the descriptor and rendered objects; gives header names and cells as text. No I/O.
import type { FieldDescriptor, ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";

/** What Nautobot writes for a null value (CSV_NULL_TYPE) and for an absent related object (CSV_NO_OBJECT). */
export const CSV_NULL = "NULL";
export const CSV_NO_OBJECT = "NoObject";

/** Fields a file has no use for (links) or that Nautobot leaves out (maps of other rows' values). */
const LEFT_OUT = new Set<FieldDescriptor["kind"]>(["url", "customFields", "computedFields", "relationships"]);

/** Columns Nautobot moves to the front, in this order. */
const FIRST = ["name", "display", "id"];

export interface Column {
  header: string;
  /** The cell of an object, as rendered by the list's full shape. */
  cell(object: Record<string, unknown>): string;
}

/** Which of `m`'s fields the objects show: as the full read plan picks them (version, `exclude`, `include`). */
export interface Shown {
  version: string;
  exclude: string[];
  include: string[];
}

/** The file's columns for `m`: its fields as shown, then one per custom field key (sorted). */
export function csvColumns(index: ModelIndex, m: ModelDescriptor, shown: Shown, customFieldKeys: string[]): Column[] {
  const fields = m.fields.filter((f) => !f.writeOnly && !f.nestedOnly && index.inVersion(f, shown.version) && !LEFT_OUT.has(f.kind)
    && !(f.kind === "computed" && f.excludable && shown.exclude.includes(f.name)) && !(f.optIn && !shown.include.includes(f.name)));
  const ordered = [...FIRST.flatMap((n) => fields.filter((f) => f.name === n)), ...fields.filter((f) => !FIRST.includes(f.name))];
  const cfColumn = m.fields.find((f) => f.kind === "customFields" && !f.writeOnly && index.inVersion(f, shown.version));
  return [
    ...ordered.map((f) => fieldColumn(index, f)),
    ...(cfColumn ? [...customFieldKeys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((key) => ({
      header: `cf_${key}`,
      cell: (o: Record<string, unknown>) => {
        const value = (o[cfColumn.name] as Record<string, unknown> | null | undefined)?.[key];
        return value === null || value === undefined ? "" : text(value);
      },
    })) : []),
  ];
}

/** The natural key a related object of `target` is shown by in a file: a field its nested form carries. */
export function naturalKeyOf(index: ModelIndex, f: FieldDescriptor): string | undefined {
  if ((f.kind !== "fk" && f.kind !== "treeParent") || f.asId) return undefined;
  const target = index.model(f.target);
  const shown = f.kind === "fk" && f.shape ? f.shape : target.nested;
  return target.naturalKey && shown.includes(target.naturalKey) ? target.naturalKey : undefined;
}

function fieldColumn(index: ModelIndex, f: FieldDescriptor): Column {
  const key = naturalKeyOf(index, f);
  if (key) {
    return {
      header: `${f.name}__${key}`,
      cell: (o) => {
        const related = o[f.name] as Record<string, unknown> | null | undefined;
        if (related === null || related === undefined) return CSV_NO_OBJECT;
        return related[key] === null || related[key] === undefined ? CSV_NULL : text(related[key]);
      },
    };
  }
  const keyOfItems = "target" in f ? index.model(f.target).naturalKey : undefined;
  return { header: f.name, cell: (o) => (o[f.name] === null || o[f.name] === undefined ? CSV_NULL : text(o[f.name], keyOfItems)) };
}

/**
 * A value as NautobotCSVRenderer writes it: a choice as its value, a related object as its
 * id, another map as JSON, a list joined with commas (related objects by `itemKey` where they
 * carry it, else by id), booleans as Python prints them.
 */
export function text(value: unknown, itemKey?: string): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (Array.isArray(value)) {
    return value.map((v) => {
      if (v !== null && typeof v === "object" && !Array.isArray(v)) {
        const o = v as Record<string, unknown>;
        return itemKey && o[itemKey] !== undefined && o[itemKey] !== null ? text(o[itemKey]) : text(o.id ?? JSON.stringify(o));
      }
      return text(v);
    }).join(",");
  }
  if (typeof value === "object") {
    const o = value as Record<string, unknown>;
    if ("value" in o && "label" in o) return text(o.value);
    if ("id" in o) return text(o.id);
    return JSON.stringify(o);
  }
  return String(value);
}
