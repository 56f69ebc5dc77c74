// One record as the record views find, show and write it: found by the route's `id` or
// `slug`, shown as the API shows it (read on the pool or on a write's transaction), and
// written as the requester.
import type { ModelDescriptor } from "../../../descriptor.js";
import type { Actor, Operation } from "../../../operations/index.js";
import type { ReadOptions, RowId } from "../../../store.js";
import { JsonText } from "../../../query/json-text.js";
import { requestId } from "../../../http/failures.js";
import { invalidParam, WpError } from "../errors.js";
import { MAX_ID } from "../params.js";
import { Shaper, type Row } from "../records.js";
import { finishedRecords, type RecordText } from "../record-text.js";
import type { WpContext } from "../context.js";

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The 404 for a record of `m` that does not exist. */
export function missing(m: ModelDescriptor, id: RowId): WpError {
  const wp = m.wordpress!;
  if (wp.kind === "term") return new WpError(404, "rest_term_invalid", "Term does not exist.");
  return new WpError(404, `rest-${wp.noun}-not-found`, `${capital(wp.noun)} with ID ${id} does not exist.`);
}

/** The row the route names: by `slug` (an unknown one is an invalid parameter) or by `id`. */
export async function findRecord(ctx: WpContext): Promise<Row> {
  const m = ctx.model!;
  const db = ctx.wp.db;
  const slug = ctx.args.slug;
  if (slug !== undefined) {
    const row = await db(m.table).where("slug", slug).first();
    if (!row) throw invalidParam("slug");
    return row;
  }
  const id = Number(ctx.args.id);
  const row = id <= MAX_ID ? await db(m.table).where("id", id).first() : undefined;
  if (row) return row;
  throw missing(m, id);
}

export function readOptions(ctx: WpContext): ReadOptions {
  return { shape: "full", version: ctx.wp.api.versions.default, ctx: { apiUrl: ctx.site.nsUrl } };
}

/** `readOptions` reading records as the JSON text `text`, for the request's site. */
export function textOptions(ctx: WpContext, text: RecordText): ReadOptions {
  return { ...readOptions(ctx), text, textValues: text.values(ctx.site) };
}

/** The record with this id as the API shows it, as PostgreSQL writes its JSON text where the model's records have one. */
export async function shownText(ctx: WpContext, m: ModelDescriptor, id: RowId): Promise<JsonText | Record<string, unknown>> {
  const text = ctx.wp.texts.of(m);
  if (!text) return shown(ctx, m, id);
  const found = await ctx.wp.store.fetchJson(await readOperation(ctx, m), m, id, textOptions(ctx, text));
  if (found === undefined) return shown(ctx, m, id);
  if (!found) throw missing(m, id);
  return new JsonText(...found.parts.map(finishedRecords));
}

/** The record with this id as the API shows it, read in `op` (a write's, or the request's reads). */
export async function shown(ctx: WpContext, m: ModelDescriptor, id: RowId, op?: Operation): Promise<Record<string, unknown>> {
  op ??= await readOperation(ctx, m);
  const [values] = await ctx.wp.store.fetch(op, m, [id], readOptions(ctx));
  // Deleted since it was found: answered as a request arriving after the delete.
  if (!values) throw missing(m, id);
  return new Shaper(ctx.wp.cat, ctx.site).record(m, values);
}

/** The requester as the actor of a write through the route of `m`. */
export function writeActor(ctx: WpContext, m: ModelDescriptor): Actor {
  return { userId: ctx.who?.userId ?? null, username: ctx.who?.username ?? null, requestId: requestId(ctx.res), context: "api", contextDetail: m.key, ...(ctx.who ? {} : { anonymous: true }) };
}

/** The request's reads of `m`. */
export function readOperation(ctx: WpContext, m: ModelDescriptor): Promise<Operation> {
  return ctx.wp.operations.read(writeActor(ctx, m));
}
