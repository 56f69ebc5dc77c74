// The rows and values a model's hooks are given, by field name, mapped from the columns the
// store reads and writes and back: JSON parsed for the hooks (its written text kept when they
// leave the value as it was), and what a save changes. Knows no model: the descriptor's fields
// and their kinds decide every name and form.
import type { Knex } from "knex";
import { storedColumn, type FieldRow, type ModelDescriptor } from "../descriptor.js";
import { kindOf } from "../kinds/index.js";

interface Stored {
  field: string;
  column: string;
  json: boolean;
}

const storedFields = new WeakMap<ModelDescriptor, { byColumn: Map<string, Stored>; byField: Map<string, Stored> }>();

/** The fields of `m` that have a column of its row, by column and by field name. */
function storedOf(m: ModelDescriptor): { byColumn: Map<string, Stored>; byField: Map<string, Stored> } {
  let found = storedFields.get(m);
  if (!found) {
    const all = m.fields.flatMap((f): Stored[] => {
      const column = storedColumn(f);
      return column === undefined ? [] : [{ field: f.name, column, json: kindOf(f).storesJson?.(f) ?? false }];
    });
    found = { byColumn: new Map(all.map((s) => [s.column, s])), byField: new Map(all.map((s) => [s.field, s])) };
    storedFields.set(m, found);
  }
  return found;
}

/** The columns of `m` that hold JSON (which `ctx.row` holds as the text written). */
export function jsonColumns(m: ModelDescriptor): Set<string> {
  let found = jsonOf.get(m);
  if (!found) {
    found = new Set([...storedOf(m).byColumn.values()].filter((s) => s.json).map((s) => s.column));
    jsonOf.set(m, found);
  }
  return found;
}

const jsonOf = new WeakMap<ModelDescriptor, Set<string>>();

/** A row as the database gives it (by column) by field name; columns no field stores are left out. */
function fieldRow(m: ModelDescriptor, row: Record<string, unknown>): FieldRow {
  const out: FieldRow = {};
  for (const [column, s] of storedOf(m).byColumn) if (column in row) out[s.field] = row[column];
  return out;
}

/** An id as the database spells it back, whichever way it was written (a UUID's case and dashes). */
const spelling = (id: unknown) => String(id).toLowerCase().replace(/[{}-]/g, "");

/** The stored rows of `m` with these ids, by field name, in the order of `ids` (missing ones left out). */
export async function storedRows(db: Knex | Knex.Transaction, m: ModelDescriptor, ids: Array<string | number>): Promise<FieldRow[]> {
  return (await storedRowsAt(db, m, ids)).filter((row): row is FieldRow => row !== null);
}

/** The stored rows of `m` with these ids, by field name, one for each of `ids` (null where none). */
export async function storedRowsAt(db: Knex | Knex.Transaction, m: ModelDescriptor, ids: Array<string | number>): Promise<Array<FieldRow | null>> {
  const rows: Array<Record<string, unknown>> = await db(m.table).whereIn("id", ids);
  const byId = new Map(rows.map((r) => [spelling(r.id), fieldRow(m, r)]));
  return ids.map((id) => byId.get(spelling(id)) ?? null);
}

/** Whether two values are the same stored value: equal primitives, or JSON values equal key by key. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || a instanceof Date || b instanceof Date) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && same(x[k], y[k]));
}

/**
 * A write's column values as its save hooks see them: by field name, JSON parsed. `writeBack()`
 * puts what the hooks left into the write's row, as columns; columns no field stores pass
 * through unseen.
 */
export class HookValues {
  /** What the hooks see and may change. */
  readonly values: FieldRow = {};
  /** The text each JSON field was written as, and that text parsed and written again (the form a value left alone has). */
  private readonly texts = new Map<string, { text: string; canonical: string }>();

  constructor(private readonly m: ModelDescriptor, private readonly row: Record<string, unknown>, readonly before: FieldRow | null) {
    const { byColumn } = storedOf(m);
    for (const [column, value] of Object.entries(row)) {
      const s = byColumn.get(column);
      if (!s) continue;
      if (s.json && typeof value === "string") {
        const parsed: unknown = JSON.parse(value);
        this.texts.set(s.field, { text: value, canonical: JSON.stringify(parsed) });
        this.values[s.field] = parsed;
      } else this.values[s.field] = value;
    }
  }

  /** The rows of an event for the model's save hooks, as the values stand now. */
  rows(): { values: FieldRow; before: FieldRow | null; after: FieldRow; changed: ReadonlySet<string> } {
    const { before, values } = this;
    const changed = Object.keys(values).filter((f) => before === null || !same(before[f], values[f]));
    return { values, before, after: { ...before, ...values }, changed: new Set(changed) };
  }

  /**
   * Replaces the write's row with what the hooks left: columns in the order the write gave
   * them, then those the hooks added; a JSON field's value as text (the text written, when the
   * hooks left the value as it was).
   */
  writeBack(): void {
    const { byColumn, byField } = storedOf(this.m);
    const out: Record<string, unknown> = {};
    const put = (s: Stored) => {
      const value = this.values[s.field];
      const text = this.texts.get(s.field);
      if (text && JSON.stringify(value) === text.canonical) out[s.column] = text.text;
      else out[s.column] = s.json && value !== null && value !== undefined ? JSON.stringify(value) : value;
    };
    for (const [column, value] of Object.entries(this.row)) {
      const s = byColumn.get(column);
      if (!s) out[column] = value;
      else if (s.field in this.values) put(s);
    }
    for (const field of Object.keys(this.values)) {
      const s = byField.get(field);
      if (!s) throw new Error(`${this.m.key}: a hook gave a value for "${field}", which is no stored field`);
      if (!(s.column in out)) put(s);
    }
    const columns = Object.keys(this.row);
    const kept = Object.keys(out);
    // Columns the hooks left as they were are set in place: deleting them would turn every row
    // of a bulk write into a slow dictionary object for the insert that reads them.
    if (kept.length === columns.length && kept.every((c, n) => c === columns[n])) {
      for (const column of kept) this.row[column] = out[column];
      return;
    }
    for (const column of columns) delete this.row[column];
    Object.assign(this.row, out);
  }
}
