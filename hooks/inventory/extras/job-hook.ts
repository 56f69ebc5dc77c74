// Nautobot's JobHook rules: its job must be a job-hook receiver (the foreign key's
// limit_choices_to), at least one kind of change (JobHook.clean), and no two hooks of one
// job for the same kind of change of the same content type (JobHook.check_for_conflicts, as
// JobHookSerializer.validate calls it: a write that names no job is not checked).
import { type ContentTypesField, ValidationError, type FieldErrors, type SaveEvent, labelOf, linkedTypes, col, ident } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasJobHook } from "../../../generated/inventory/rows.js";
import { receiverJob } from "../lib/job-receivers.js";

// Read when called: the generator loads hooks before it writes the tables they name.
const hookColumns = () => tables.extras.jobhook.columns;

const TYPES = [["type_create", "create"], ["type_update", "update"], ["type_delete", "delete"]] as const;

export async function beforeSave({ db, model, id, values, before, links }: SaveEvent<ExtrasJobHook>): Promise<void> {
  const defaults = Object.fromEntries(model.fields.flatMap((f) => ("column" in f && f.default !== undefined ? [[f.name, f.default]] : [])));
  const h: Partial<ExtrasJobHook> = { ...(before ?? defaults), ...values };
  // Django's full_clean: the fields' errors and clean()'s together.
  const errors: FieldErrors = {};
  const job = h.job ? await receiverJob(db, String(h.job), "is_job_hook_receiver") : null;
  if (h.job && !job) errors.job = [`job instance with id UUID('${String(h.job)}') does not exist.`];
  if (!h.type_create && !h.type_update && !h.type_delete) errors.non_field_errors = ["You must select at least one type: create, update, and/or delete."];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  if (!("job" in values) || !job) return;
  const types = model.fields.find((f): f is ContentTypesField => f.kind === "contentTypes" && f.name === "content_types")!;
  const r = types.registry;
  const t = types.through;
  const labels = (links.content_types as string[] | undefined) ?? (id === null ? [] : await stored(db, types, id));
  const rows: Array<{ name: string; type_create: boolean; type_update: boolean; type_delete: boolean }> = (await db.raw(
    `SELECT ${col("r", r.labeledName)} AS name, ` + TYPES.map(([f]) => `bool_or(${col("h", hookColumns()[f])}) AS ${f}`).join(", ") +
    ` FROM ${ident(t.table)} j JOIN ${ident(r.table)} r ON r.id = ${col("j", t.target)} JOIN ${ident(model.table)} h ON h.id = ${col("j", t.source)}` +
    ` WHERE ${labelOf(r, "r")} = ANY(?::text[]) AND ${col("h", hookColumns().job)} = ?${id === null ? "" : " AND h.id <> ?"}` +
    ` GROUP BY ${labelOf(r, "r")}, 1 ORDER BY array_position(?::text[], ${labelOf(r, "r")})`,
    [labels, job.id, ...(id === null ? [] : [id]), labels],
  )).rows;
  const conflicts: Record<string, string[]> = {};
  for (const other of rows) {
    for (const [field, action] of TYPES) {
      if (h[field] && other[field]) (conflicts[field] ??= []).push(`A job hook already exists for ${action} on ${other.name} to job ${job.name}`);
    }
  }
  if (Object.keys(conflicts).length) throw new ValidationError(conflicts);
}

async function stored(db: SaveEvent["db"], f: ContentTypesField, id: string | number): Promise<string[]> {
  const rows: Array<{ label: string }> = (await db.raw(`SELECT ${labelOf(f.registry, "r")} AS label ${linkedTypes(f.through, f.registry, "?")} ORDER BY 1`, [id])).rows;
  return rows.map((x) => x.label);
}
