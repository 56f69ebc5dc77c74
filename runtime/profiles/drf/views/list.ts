// A model's list (`…/<route>/`): GET pages through the objects the filters pick (by offset, by
// cursor, rendered by an export template, or all as CSV), POST creates one object or a list of
// them (JSON, or CSV rows), and PUT, PATCH and DELETE of a list of ids change or remove them all
// or none.
import type { WriteOperation } from "../../../operations/index.js";
import { inVersion, modelRoute, type FieldDescriptor, type ModelDescriptor } from "../../../descriptor.js";
import { presumes } from "../../../db/presumed.js";
import type { JsonText } from "../../../query/json-text.js";
import type { ReadOptions } from "../../../store.js";
import { HttpError, ValidationError } from "../../../errors.js";
import { contentType } from "../../../http/request.js";
import { EXPORT_PARAM } from "../../../features/index.js";
import { actionOf, customFieldColumns } from "../../../features/index.js";
import { decodeCursor } from "../pagination.js";
import type { Ctx } from "../context.js";
import { bulkIds, requireAll } from "../bulk.js";
import { actor, expectList, filterFor, isBrief, readBody, readOpts, reading } from "../request.js";
import { csvBodies, csvRecords, csvRefusal } from "../csv-import.js";
import { sendCsv } from "../csv-export.js";
import { answerAction } from "./action.js";
import { modelMethod } from "./allow.js";

export async function list(ctx: Ctx): Promise<void> {
  const { index, api } = ctx.drf;
  const m = index.model(ctx.match.route.model!);
  ctx.view = { model: m, kind: "list" };
  const method = await modelMethod(ctx, m, ["POST", "PUT"]);
  if (!method) return;
  const listedBy = ctx.match.route.listedBy;
  if (method === "GET" && listedBy && inVersion(listedBy, ctx.version, api.versions.supported)) {
    return answerAction(ctx, m, m.actions!.find((a) => a.name === listedBy.action)!, null, {});
  }
  if (method === "GET") return read(ctx, m);
  if (method === "POST" && contentType(ctx.req) === "text/csv") return importCsv(ctx, m);
  const body = await readBody(ctx, m);
  if (method === "POST") return create(ctx, m, body);
  return bulk(ctx, m, method, expectList(body));
}

/**
 * Pages longer than this are read as their rows arrive and sent as they come once long enough
 * (runtime/http/json-text.ts sendArrivingJson); shorter ones, nearly every page, whole.
 */
const ARRIVING_FROM = 100;

async function read(ctx: Ctx, m: ModelDescriptor): Promise<void> {
  const { exports, store, policy } = ctx.drf;
  const op = await reading(ctx, m, "list");
  const where = await filterFor(ctx, op, m);
  const exportName = exports && ctx.params.get(EXPORT_PARAM)?.at(-1);
  if (ctx.renderer === "csv" && exportName === undefined) return sendCsv(ctx, m, op, where);
  if (exports && exportName !== undefined) {
    const file = await exports.render(op, store, m, exportName, where, readOpts(ctx));
    // As Django's HttpResponse sends them: the template's type as given, no charset added.
    ctx.res.status(200).setHeader("Content-Type", file.mimeType);
    ctx.res.setHeader("Content-Disposition", `attachment; filename="${file.filename}"`);
    ctx.res.end(file.body);
    return;
  }
  const at = policy.paginator.params(ctx);
  const rawCursor = ctx.params.get("cursor")?.at(-1);
  if (rawCursor !== undefined) {
    const after = decodeCursor(rawCursor);
    // DRF's CursorPagination answers a cursor it cannot read so.
    if (!after) throw new HttpError(404, { code: "invalid_cursor" });
    const opts = readOpts(ctx, isBrief(ctx));
    const json = await store.listJson(op, m, where, { limit: at.limit, offset: 0, after }, opts);
    if (json) return policy.renderer(ctx, 200, policy.paginator.cursorPageJson(ctx, at.limit, json.count, json.results, json.cursor));
    const { count, results, cursor } = await store.list(op, m, where, { limit: at.limit, offset: 0, after }, opts);
    return policy.renderer(ctx, 200, policy.paginator.cursorPage(ctx, at.limit, count, results, cursor));
  }
  const opts = readOpts(ctx, isBrief(ctx));
  const json = await store.listJson(op, m, where, at, opts, at.limit === null || at.limit > ARRIVING_FROM);
  if (json) return policy.renderer(ctx, 200, policy.paginator.pageJson(ctx, at, json.count, json.results));
  const { count, results } = await store.list(op, m, where, at, opts);
  return policy.renderer(ctx, 200, policy.paginator.page(ctx, at, count, results));
}

async function create(ctx: Ctx, m: ModelDescriptor, body: unknown): Promise<void> {
  const { store, operations, policy } = ctx.drf;
  const opts = { version: ctx.version };
  const many = Array.isArray(body);
  const by = await actor(ctx, m, "list");
  const shown = readOpts(ctx);
  type Made = { id: string; later: Promise<JsonText | undefined> } | { objects: Array<Record<string, unknown>> } | { bulk: BulkAnswer };
  const made = await operations.run(by, async (op): Promise<Made> => {
    if (many) return { bulk: await bulkAnswer(ctx, op, m, await store.createMany(op, m, body, opts), shown) };
    // One object's statements go ahead of their outcome, with its answer's read; where the
    // write presumes (runtime/db/presumed.ts) its answer is taken once it has committed.
    const id = await store.create(op, m, body, { ...opts, partial: false, ahead: true });
    const later = presumes(op.trx) && m.fields.some(isObjectUrl) ? store.answerAfterCommit(op, m, id, shown) : undefined;
    return later ? { id, later } : { objects: await store.answer(op, m, [id], shown) };
  }, { presume: !many, meanwhile: (done) => "bulk" in done && renderAhead(ctx, done.bulk) });
  if ("bulk" in made) return policy.renderer(ctx, 201, made.bulk);
  if ("objects" in made) {
    ctx.res.set("Location", String(made.objects[0].url));
    return policy.renderer(ctx, 201, made.objects[0]);
  }
  ctx.res.set("Location", `${shown.ctx.apiUrl}${modelRoute(m)}/${made.id}/`);
  // Read again, as any read after a write, where the facts its plan was built on had changed.
  const text = await made.later ?? (await store.fetch(await operations.read(by), m, [made.id], { ...shown, unscoped: true }))[0];
  return policy.renderer(ctx, 201, text);
}

/** A bulk write's answer: PostgreSQL's text of its objects, or where the plan is rendered in JavaScript the objects. */
type BulkAnswer = JsonText | Array<Record<string, unknown>>;

async function bulkAnswer(ctx: Ctx, op: WriteOperation, m: ModelDescriptor, ids: string[], shown: ReadOptions): Promise<BulkAnswer> {
  const { store } = ctx.drf;
  return (await store.answerJson(op, m, ids, shown)) ?? store.answer(op, m, ids, shown);
}

/** Objects answered are made into their text while the operation commits (RunOptions.meanwhile); PostgreSQL's text is already. */
function renderAhead(ctx: Ctx, answer: BulkAnswer): void {
  if (Array.isArray(answer)) ctx.drf.policy.renderAhead(ctx, answer);
}

/** The object's own URL field (its answer's `url`, which a create's Location repeats). */
const isObjectUrl = (f: FieldDescriptor) => f.kind === "url" && !f.path && f.name === "url";

/** A CSV body: its rows created as one bulk, answered as the JSON bulk's list; refusals by row and field. */
async function importCsv(ctx: Ctx, m: ModelDescriptor): Promise<void> {
  const { index, api, store, operations, policy } = ctx.drf;
  const { header, rows } = csvRecords(Buffer.isBuffer(ctx.req.body) ? ctx.req.body : Buffer.alloc(0));
  const by = await actor(ctx, m, "list");
  const objects = await operations.run(by, async (op) => {
    const bodies = csvBodies(index, m, header, rows, await customFieldColumns(op.trx, m, ctx.version, api.versions.supported));
    const ids = await store.createMany(op, m, bodies, { version: ctx.version }).catch((err: unknown) => {
      throw err instanceof ValidationError ? csvRefusal(m, err) : err;
    });
    return bulkAnswer(ctx, op, m, ids, readOpts(ctx));
  }, { meanwhile: (done) => renderAhead(ctx, done) });
  return policy.renderer(ctx, 201, objects);
}

async function bulk(ctx: Ctx, m: ModelDescriptor, method: string, items: unknown[]): Promise<void> {
  const { index, store, operations, policy } = ctx.drf;
  const wanted = bulkIds(items, index.integerKeys(m));
  const by = await actor(ctx, m, "list");
  // The rows are locked before anything is written: an id deleted meanwhile is unknown, not
  // skipped, as is one the requester may not change or delete.
  const lockAll = async (op: WriteOperation) => requireAll(wanted, await store.existing(op, m, wanted, { action: actionOf(method) ?? undefined, lock: true }));
  if (method === "DELETE") {
    await operations.run(by, async (op) => {
      await lockAll(op);
      await store.remove(op, m, wanted);
    });
    ctx.res.status(204).end();
    return;
  }
  // As Nautobot's bulk update, the first invalid element is the error (the store's updateMany).
  const changes = items.map((item, i) => {
    const { id: _id, ...body } = item as Record<string, unknown>;
    return { id: wanted[i], body };
  });
  const objects = await operations.run(by, async (op) => {
    await lockAll(op);
    await store.updateMany(op, m, changes, { version: ctx.version, partial: method === "PATCH" });
    return bulkAnswer(ctx, op, m, wanted, readOpts(ctx));
  }, { meanwhile: (done) => renderAhead(ctx, done) });
  return policy.renderer(ctx, 200, objects);
}
