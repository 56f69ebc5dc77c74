// GraphQL mutations as this profile writes: each one the store call its REST route makes
// (a list's POST, a detail's PATCH or DELETE, a bulk PATCH or DELETE), authorized as that
// route authorizes it (the model's add, change or delete permission, a write-enabled token),
// the requester as the actor, so object permissions' constraints, the change log, webhooks and
// job hooks see a GraphQL write as they see a REST one. A document's mutations are one
// operation. GraphQL has no versions: writes take the fields of the API's latest one, as the
// generated input types do, whatever version the request negotiated for its reads. Refusals are worded as REST words them, the field map in the error's extensions.
import type { ModelDescriptor } from "../../descriptor.js";
import { HttpError, notFound, ValidationError } from "../../errors.js";
import { unstorableText } from "../../db/errors.js";
import type { Refusal, Writer } from "../../graphql/index.js";
import type { WriteAction } from "../../graphql/schema.js";
import type { RowId, WriteOperation } from "../../operations/index.js";
import { pyRepr } from "../../text/python.js";
import { bulkIds, expectObject, requireAll } from "./bulk.js";
import type { Ctx } from "./context.js";
import { expectList, requestActor } from "./request.js";
import { wordErrors, wordProblem } from "./wording.js";

/** The permission each mutation needs, as the REST method it stands for. */
const PERMISSION: Record<WriteAction, string> = { create: "add", update: "change", delete: "delete" };

/** The change context's detail of GraphQL writes (a REST write's is its route's name). */
const CONTEXT_DETAIL = "graphql";

/** The version GraphQL writes in: the API's latest. */
const latest = (ctx: Ctx) => ctx.drf.api.versions.supported.at(-1)!;

export function graphqlWriter(ctx: Ctx): Writer {
  const { operations } = ctx.drf;
  return {
    run: async (work) => operations.run(await requestActor(ctx, CONTEXT_DETAIL), work),
    async write(op, { model, action, many }, args) {
      await ctx.drf.policy.permission.authorize(ctx, model, PERMISSION[action]);
      const w = operations.acting(op, await requestActor(ctx, CONTEXT_DETAIL, model.key));
      if (action === "create") return create(ctx, w, model, many, args);
      if (many) return bulk(ctx, w, model, action, args);
      return one(ctx, w, model, action, args);
    },
    refusal,
  };
}

async function create(ctx: Ctx, op: WriteOperation, m: ModelDescriptor, many: boolean, args: Record<string, unknown>): Promise<RowId[]> {
  const { store } = ctx.drf;
  const opts = { version: latest(ctx) };
  if (many) return store.createMany(op, m, expectList(args.input), opts);
  return [await store.create(op, m, args.input, { ...opts, partial: false })];
}

/** As a detail route's PATCH or DELETE: the object locked, a 404 where the requester may not change or delete it. */
async function one(ctx: Ctx, op: WriteOperation, m: ModelDescriptor, action: WriteAction, args: Record<string, unknown>): Promise<RowId[]> {
  const { store } = ctx.drf;
  const id = String(args.id).toLowerCase();
  if (!store.isKey(m, id)) throw notFound();
  if (!(await store.existing(op, m, [id], { action: PERMISSION[action], lock: true })).length) throw notFound();
  if (action === "delete") await store.remove(op, m, [id]);
  else await store.update(op, m, id, expectObject(args.input), { version: latest(ctx), partial: true });
  return [id];
}

/** As a list route's bulk PATCH or DELETE: every id known and reachable, or nothing written. */
async function bulk(ctx: Ctx, op: WriteOperation, m: ModelDescriptor, action: WriteAction, args: Record<string, unknown>): Promise<RowId[]> {
  const { store, index } = ctx.drf;
  const items = action === "delete" ? expectList(args.ids).map((id) => ({ id })) : expectList(args.input);
  const wanted = bulkIds(items, index.integerKeys(m));
  requireAll(wanted, await store.existing(op, m, wanted, { action: PERMISSION[action], lock: true }));
  if (action === "delete") {
    await store.remove(op, m, wanted);
    return wanted;
  }
  const changes = items.map((item, i) => {
    const { id: _id, ...body } = item as Record<string, unknown>;
    return { id: wanted[i], body };
  });
  await store.updateMany(op, m, changes, { version: latest(ctx), partial: true });
  return wanted;
}

/** A write's refusal in REST's words: a validation error's field map (as REST's 400 body) in the extensions, and its status. */
function refusal(err: unknown): Refusal | undefined {
  if (err instanceof ValidationError) {
    const errors = wordErrors(err.errors);
    return { status: 400, message: pyRepr(errors), extensions: { code: "invalid", status: 400, errors } };
  }
  if (err instanceof HttpError) {
    const detail = err.problem ? wordProblem(err.problem) : err.message;
    return { status: err.status, message: detail, extensions: { code: err.code ?? "error", status: err.status, detail } };
  }
  if (unstorableText(err)) {
    const detail = wordProblem({ code: "null_characters" });
    return { status: 400, message: detail, extensions: { code: "null_characters", status: 400, detail } };
  }
  return undefined;
}
