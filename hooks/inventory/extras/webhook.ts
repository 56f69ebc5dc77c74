// Nautobot's Webhook.clean (at least one kind of change; no CA file without SSL verification)
// and its serializer's conflict check: no two webhooks send the same kind of change of the
// same content type to the same URL.
import {
  type ContentTypesField, type ModelDescriptor, ValidationError, Refusal, type HookDb, type SaveEvent, labelOf, linkedTypes, col, ident,
} from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasWebhook } from "../../../generated/inventory/rows.js";

const W = tables.extras.webhook.columns;

const TYPES = [["type_create", "create"], ["type_update", "update"], ["type_delete", "delete"]] as const;

export async function beforeSave({ db, model, id, values, before, links }: SaveEvent<ExtrasWebhook>): Promise<void> {
  // The webhook as it will be: the stored row under what this write changes, or the defaults on create.
  const defaults = Object.fromEntries(model.fields.flatMap((f) => ("column" in f && f.default !== undefined ? [[f.name, f.default]] : [])));
  const w: Partial<ExtrasWebhook> = { ...(before ?? defaults), ...values };
  if (!w.type_create && !w.type_update && !w.type_delete) {
    throw new Refusal({ non_field_errors: "You must select at least one type: create, update, and/or delete." });
  }
  if (!w.ssl_verification && w.ca_file_path) throw new Refusal({ ca_file_path: "Do not specify a CA certificate file if SSL verification is disabled." });
  const types = model.fields.find((f): f is ContentTypesField => f.kind === "contentTypes" && f.name === "content_types")!;
  const labels = (links.content_types as string[] | undefined) ?? (id === null ? [] : await storedLabels(db, types, id));
  const taken = await takenTypes(db, model, types, labels, String(w.payload_url), id);
  const conflicts: Record<string, string[]> = {};
  for (const label of labels) {
    const other = taken.get(label);
    if (!other) continue;
    for (const [field, action] of TYPES) {
      if (w[field] && other[field]) (conflicts[field] ??= []).push(`A webhook already exists for ${action} on ${other.name} to URL ${String(w.payload_url)}`);
    }
  }
  if (Object.keys(conflicts).length) throw new ValidationError(conflicts);
}

/** The content types a stored webhook has, in label order. */
async function storedLabels(db: HookDb, f: ContentTypesField, id: string | number): Promise<string[]> {
  const r = f.registry;
  const rows: Array<{ label: string }> = (await db.raw(`SELECT ${labelOf(r, "r")} AS label ${linkedTypes(f.through, r, "?")} ORDER BY 1`, [id])).rows;
  return rows.map((x) => x.label);
}

/**
 * Of `labels`, those another webhook to `url` has, each with its name as Django shows the
 * content type and the kinds of change some such webhook is sent for.
 */
async function takenTypes(db: HookDb, model: ModelDescriptor, f: ContentTypesField, labels: string[], url: string, id: string | number | null) {
  const r = f.registry;
  const t = f.through;
  const rows: Array<{ label: string; name: string; type_create: boolean; type_update: boolean; type_delete: boolean }> = (await db.raw(
    `SELECT ${labelOf(r, "r")} AS label, ${col("r", r.labeledName)} AS name, ` +
    TYPES.map(([field]) => `bool_or(${col("w", W[field])}) AS ${field}`).join(", ") +
    ` FROM ${ident(t.table)} j JOIN ${ident(r.table)} r ON r.id = ${col("j", t.target)} JOIN ${ident(model.table)} w ON w.id = ${col("j", t.source)}` +
    ` WHERE ${labelOf(r, "r")} = ANY(?::text[]) AND ${col("w", W.payload_url)} = ?${id === null ? "" : " AND w.id <> ?"} GROUP BY 1, 2`,
    [labels, url, ...(id === null ? [] : [id])],
  )).rows;
  return new Map(rows.map((x) => [x.label, x]));
}
