// Webhooks: after a write, the deliveries its changes call for, rendered and put on the queue
// in the write's own transaction (a rolled-back write sends nothing, a committed one is sent
// by a queue worker after the commit, never by the request). The definitions are rows of the
// API's `webhooks` model, whose fields are named as Nautobot's Webhook; the handler that sends
// a delivery is ./deliver.ts.
import type { Knex } from "knex";
import type { ApiDescriptor, ContentTypesField, ModelDescriptor } from "../../descriptor.js";
import { labelOf } from "../../kinds/content-types.js";
import { ModelIndex } from "../../models.js";
import { enqueueMany } from "../../queue/tasks.js";
import { col, ident } from "../../query/sql.js";
import { pythonTimestamp, renderDelivery, snapshots, type Change, type WebhookDefinition } from "./render.js";
import type { Feature } from "../types.js";
import { webhookHandler } from "./deliver.js";

/** The queue task kind of a webhook delivery. */
export const WEBHOOK_TASK = "webhook";

export interface ChangeEvent {
  action: "create" | "update" | "delete";
  /** The changed object's content-type label (`ipam.prefix`). */
  model: string;
  objectId: string;
  time: Date;
  username: string;
  requestId: string;
  /** The object as the API shows it in full: after the change, before it for a delete. */
  data: Record<string, unknown> | null;
  /** The same before the change (null for a create) and after it (null for a delete). */
  prechange: Record<string, unknown> | null;
  postchange: Record<string, unknown> | null;
}

const EVENT: Record<ChangeEvent["action"], string> = { create: "created", update: "updated", delete: "deleted" };

const indexes = new WeakMap<ApiDescriptor, { index: ModelIndex; model: ModelDescriptor; types: ContentTypesField }>();

function webhookModel(api: ApiDescriptor, key: string): { index: ModelIndex; model: ModelDescriptor; types: ContentTypesField } {
  let found = indexes.get(api);
  if (!found) {
    const index = new ModelIndex(api);
    const model = index.model(key);
    const types = model.fields.find((f): f is ContentTypesField => f.kind === "contentTypes");
    if (!types) throw new Error(`${model.key}, the API's webhooks model, has no content types field`);
    found = { index, model, types };
    indexes.set(api, found);
  }
  return found;
}

/** A webhook a change calls for, with the (content type, action) pair it was found for. */
export type FoundWebhook = WebhookDefinition & { label: string; action: string };

/**
 * The statement text that finds the enabled webhooks of `api` for (content-type label, action)
 * pairs, bound as two text arrays (`?`, `?`): for a caller that finds them within a statement
 * of its own and hands them to `enqueueWebhooks`. Null when the api has no webhooks.
 */
export function webhooksQuery(api: ApiDescriptor): string | null {
  if (!api.webhooks) return null;
  const { index, model, types } = webhookModel(api, api.webhooks);
  const c = (field: string) => col("w", index.column(model, field));
  return `SELECT p.label, p.action, w.id::text AS id, ${c("name")} AS name, ${c("payload_url")} AS payload_url, ${c("http_method")} AS http_method, ` +
    `${c("http_content_type")} AS http_content_type, ${c("additional_headers")} AS additional_headers, ${c("body_template")} AS body_template, ` +
    `${c("secret")} AS secret, ${c("ssl_verification")} AS ssl_verification, ${c("ca_file_path")} AS ca_file_path ` +
    `FROM unnest(?::text[], ?::text[]) AS p(label, action) JOIN ${ident(model.table)} w ON ${c("enabled")} ` +
    `AND CASE p.action WHEN 'create' THEN ${c("type_create")} WHEN 'update' THEN ${c("type_update")} ELSE ${c("type_delete")} END ` +
    `WHERE EXISTS (SELECT 1 FROM ${ident(types.through.table)} j JOIN ${ident(types.registry.table)} r ON r.id = ${col("j", types.through.target)} ` +
    `WHERE ${col("j", types.through.source)} = w.id AND ${labelOf(types.registry, "r")} = p.label) ` +
    `ORDER BY ${c("name")}, w.id`;
}

/**
 * Enqueues, in `trx`, one delivery per event and enabled webhook of `api` that names the
 * event's content type and action: those `found` (see `webhooksQuery`) or, without them, those
 * one statement finds for every event; one more enqueues all the deliveries, when there are any.
 */
export async function enqueueWebhooks(trx: Knex.Transaction | Knex, api: ApiDescriptor, events: ChangeEvent[], found?: FoundWebhook[]): Promise<void> {
  const query = webhooksQuery(api);
  if (!query || !events.length) return;
  const pair = (label: string, action: string) => `${label} ${action}`;
  const pairs = [...new Map(events.map((e) => [pair(e.model, e.action), e])).values()];
  const rows = found ?? (await trx.raw(query, [pairs.map((e) => e.model), pairs.map((e) => e.action)])).rows as FoundWebhook[];
  const webhooks = new Map<string, WebhookDefinition[]>();
  for (const row of rows) {
    const key = pair(row.label, row.action);
    webhooks.set(key, [...(webhooks.get(key) ?? []), row]);
  }
  const deliveries = events.flatMap((e) => {
    const matching = webhooks.get(pair(e.model, e.action));
    if (!matching) return [];
    const change: Change = {
      event: EVENT[e.action],
      timestamp: pythonTimestamp(e.time),
      model: e.model.slice(e.model.lastIndexOf(".") + 1),
      username: e.username,
      request_id: e.requestId,
      data: e.data,
      snapshots: snapshots(e.prechange, e.postchange),
    };
    const about = `${change.event} ${e.model} ${e.objectId}`;
    return matching.map((w) => ({ kind: WEBHOOK_TASK, payload: renderDelivery(w, change, about) }));
  });
  await enqueueMany(trx, deliveries);
}

/** Webhooks are found and enqueued by the change log's statement (changes/); this runs their deliveries. */
export const feature = {
  name: "webhooks",
  tasks: ({ config }) => ({ [WEBHOOK_TASK]: webhookHandler({ timeoutMs: config.webhookTimeout * 1000 }) }),
} satisfies Feature;
