// A model's list (`…/<route>/`): GET pages through the objects the filters pick (by offset, by
// cursor, rendered by an export template, or all as CSV), POST creates one object or a list of
// them (JSON, or CSV rows), and PUT, PATCH and DELETE of a list of ids change or remove them all
// or none.
import type { WriteOperation } from "../../../operations/index.js";
import { inVersion, type ModelDescriptor } from "../../../descriptor.js";
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
  const json = await store.listJson(op, m, where, at, opts);
  if (json) return policy.renderer(ctx, 200, policy.paginator.pageJson(ctx, at, json.count, json.results));
  const { count, results } = await store.list(op, m, where, at, opts);
  return policy.renderer(ctx, 200, policy.paginator.page(ctx, at, count, results));
}

async function create(ctx: Ctx, m: ModelDescriptor, body: unknown): Promise<void> {
  const { store, operations, policy } = ctx.drf;
  const opts = { version: ctx.version };
  const many = Array.isArray(body);
  const by = await actor(ctx, m, "list");
  const objects = await operations.run(by, async (op) => {
    // One object's statements go ahead of their outcome, with its answer's read.
    const ids = many ? await store.createMany(op, m, body, opts) : [await store.create(op, m, body, { ...opts, partial: false, ahead: true })];
    return store.answer(op, m, ids, readOpts(ctx));
  }, { presume: !many });
  if (!many) ctx.res.set("Location", String(objects[0].url));
  return policy.renderer(ctx, 201, many ? objects : objects[0]);
}

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
    return store.answer(op, m, ids, readOpts(ctx));
  });
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
    return store.answer(op, m, wanted, readOpts(ctx));
  });
  return policy.renderer(ctx, 200, objects);
}
