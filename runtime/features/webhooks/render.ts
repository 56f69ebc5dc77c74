// What a webhook sends for one change, made as Nautobot 1.5 makes it (extras/tasks.py
// process_webhook, Webhook.render_headers and render_body, ObjectChange.get_snapshots): the
// context, the body (the context as Python's json.dumps writes it, or the body template
// rendered), the headers (the content type, then the additional headers rendered) and the
// signature. Pure: no database, no network.
import { createHmac } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { render } from "../../templates/jinja.js";

/** A webhook definition's columns, named as Nautobot's Webhook fields. */
export interface WebhookDefinition {
  id: string;
  name: string;
  payload_url: string;
  http_method: string;
  http_content_type: string;
  additional_headers: string | null;
  body_template: string | null;
  secret: string | null;
  ssl_verification: boolean;
  ca_file_path: string | null;
}

/** A rendered request, ready to send: the task payload of a delivery. */
export interface Delivery {
  webhook: { id: string; name: string };
  /** What it is about, for whoever reads the queue: `created ipam.prefix <id>`, the change's request id. */
  about: string;
  requestId: string;
  url: string;
  method: string;
  /** In order; names unique regardless of case. */
  headers: Array<[string, string]>;
  body: string;
  sslVerification: boolean;
  caFilePath: string | null;
  /** Why the request could not be made (a template that failed): the delivery fails without being sent or retried. */
  error?: string;
}

export interface Snapshots {
  prechange: Record<string, unknown> | null;
  postchange: Record<string, unknown> | null;
  differences: { removed: Record<string, unknown> | null; added: Record<string, unknown> | null };
}

const present = (d: Record<string, unknown> | null): d is Record<string, unknown> => d !== null && Object.keys(d).length > 0;

/**
 * The object before and after, and their shallow difference: the keys whose values changed
 * (`last_updated` aside) with their new values as `added` and their old ones as `removed`;
 * a create adds everything, a delete removes everything.
 */
export function snapshots(prechange: Record<string, unknown> | null, postchange: Record<string, unknown> | null): Snapshots {
  if (present(prechange) && present(postchange)) {
    const added: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(postchange)) {
      if (key !== "last_updated" && !isDeepStrictEqual(prechange[key] ?? null, value)) added[key] = value;
    }
    const removed = Object.fromEntries(Object.keys(added).map((key) => [key, prechange[key] ?? null]));
    return { prechange, postchange, differences: { removed, added } };
  }
  if (present(prechange)) return { prechange, postchange, differences: { removed: prechange, added: null } };
  return { prechange, postchange, differences: { removed: null, added: postchange } };
}

/** Python's `str()` of an aware UTC datetime: `2024-05-01 10:20:30.123000+00:00` (no fraction at a whole second). */
export function pythonTimestamp(time: Date): string {
  const iso = time.toISOString();
  const ms = time.getUTCMilliseconds();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${ms ? `.${String(ms).padStart(3, "0")}000` : ""}+00:00`;
}

/** JSON as Python's `json.dumps(value, ensure_ascii=False)` writes it: `", "` and `": "` between items. */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object" && !(value instanceof Date)) {
    const items = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${items.map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** HMAC-SHA512 of the body with the secret, in hex: Nautobot's `X-Hook-Signature`. */
export function signature(body: string, secret: string): string {
  return createHmac("sha512", secret).update(body, "utf8").digest("hex");
}

// Python's str.splitlines() boundaries.
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
// RFC 9110 token characters, and what a field value may hold (as Node's http checks it).
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Sets `name` in `headers`, replacing one of any case in place, as requests' case-insensitive headers do. */
function setHeader(headers: Array<[string, string]>, name: string, value: string): void {
  const at = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
  if (at >= 0) headers[at] = [name, value];
  else headers.push([name, value]);
}

/**
 * The additional headers rendered with `context`, one `Name: value` per line, each trimmed.
 * A line is split at its first colon (Nautobot refuses a value holding one) and a blank line
 * is skipped (Nautobot refuses it too); a line without a colon, or a name or value HTTP does
 * not allow, is an error.
 */
export function renderHeaders(template: string, context: Record<string, unknown>): { ok: true; headers: Array<[string, string]> } | { ok: false; error: string } {
  const rendered = render(template, context);
  if (!rendered.ok) return rendered;
  const headers: Array<[string, string]> = [];
  for (const line of rendered.value.split(LINE_BREAK)) {
    if (!line.trim()) continue;
    const colon = line.indexOf(":");
    if (colon < 0) return { ok: false, error: `"${line}" is not a header line (Name: value).` };
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (!HEADER_NAME.test(name)) return { ok: false, error: `"${name}" is not a valid header name.` };
    if (!HEADER_VALUE.test(value)) return { ok: false, error: `The value of header "${name}" holds characters HTTP does not allow.` };
    setHeader(headers, name, value);
  }
  return { ok: true, headers };
}

export interface Change {
  /** `created`, `updated` or `deleted`. */
  event: string;
  /** The model's name without its app (`prefix`), as Nautobot's `model_name`. */
  model: string;
  timestamp: string;
  username: string;
  request_id: string;
  data: Record<string, unknown> | null;
  snapshots: Snapshots;
}

/** The request `webhook` makes for `change` (the template context), or why it cannot be made. */
export function renderDelivery(webhook: WebhookDefinition, change: Change, about: string): Delivery {
  // In Nautobot's order, which the default body keeps.
  const context: Record<string, unknown> = {
    event: change.event, timestamp: change.timestamp, model: change.model, username: change.username,
    request_id: change.request_id, data: change.data, snapshots: change.snapshots,
  };
  const delivery: Delivery = {
    webhook: { id: webhook.id, name: webhook.name },
    about,
    requestId: change.request_id,
    url: webhook.payload_url,
    method: webhook.http_method,
    headers: [["Content-Type", webhook.http_content_type]],
    body: "",
    sslVerification: webhook.ssl_verification,
    caFilePath: webhook.ca_file_path || null,
  };
  if (webhook.additional_headers) {
    const extra = renderHeaders(webhook.additional_headers, context);
    if (!extra.ok) return { ...delivery, error: `Error parsing HTTP headers for webhook ${webhook.name}: ${extra.error}` };
    for (const [name, value] of extra.headers) setHeader(delivery.headers, name, value);
  }
  if (webhook.body_template) {
    const body = render(webhook.body_template, context);
    if (!body.ok) return { ...delivery, error: `Error rendering request body for webhook ${webhook.name}: ${body.error}` };
    delivery.body = body.value;
  } else {
    delivery.body = pythonJson(context);
  }
  if (webhook.secret) setHeader(delivery.headers, "X-Hook-Signature", signature(delivery.body, webhook.secret));
  return delivery;
}
