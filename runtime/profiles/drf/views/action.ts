// A model's action, of one object (`…/<id>/<name>/`), on its app, or at its own path,
// answered by its hook module: a GET, a POST (`method`), or both for one that creates objects.
// The requester needs the action's permission (or the method's) on the model, and the object
// must be one that permission lets them reach.
import type { ModelDescriptor } from "../../../descriptor.js";
import type { ActionEvent } from "../../../hook-events.js";
import { Answer, ValidationError, notFound, type FieldErrors } from "../../../errors.js";
import { contentType } from "../../../http/request.js";
import { actionOf } from "../../../features/index.js";
import { answerGraphql, requesterOf } from "../graphql.js";
import type { Ctx } from "../context.js";
import { notAnObject } from "../bulk.js";
import { actor, readForm, readJson, readOpts } from "../request.js";
import { notAllowed, only } from "./allow.js";

type Action = NonNullable<ModelDescriptor["actions"]>[number];

export function action(ctx: Ctx): Promise<void> | void {
  const { route, params } = ctx.match;
  const m = ctx.drf.index.model(route.model!);
  const act = m.actions!.find((a) => a.name === route.action)!;
  if (act.method === "POST" && ctx.req.method !== "POST" && ctx.req.method !== "OPTIONS") {
    ctx.res.set("Allow", "POST, OPTIONS");
    throw notAllowed(ctx.req.method);
  }
  return only(ctx, act.method === "POST" ? ["POST"] : act.creates ? ["GET", "POST"] : ["GET"], async () => {
    const { index, store, policy } = ctx.drf;
    const made = act.creates && ctx.req.method === "POST" ? index.model(act.creates.model) : undefined;
    const permission = act.permission ?? actionOf(ctx.req.method);
    await policy.permission.authorize(ctx, made ?? m, permission);
    const id = route.pathAction ? null : params.id?.toLowerCase() ?? null;
    const event = await actionEvent(ctx, m, act.name, id, route.pathAction ? params : {}, made);
    const reachable = async () => id === null || (await store.existing(event.op, m, [id], { action: made ? "view" : permission ?? "view" })).length > 0;
    // An allocation's batch asks for its object with the others' (operations/allocations.ts).
    if (made) return allocate(ctx, act.name, made, event, reachable);
    if (!(await reachable())) throw notFound();
    return answerAction(ctx, m, act, id, event.path, event);
  });
}

/** What an action's hook is given (see ActionEvent). */
async function actionEvent(ctx: Ctx, m: ModelDescriptor, name: string, id: string | null, path: Record<string, string>, made?: ModelDescriptor): Promise<ActionEvent> {
  const { db, engine, store, operations, graphql, policy } = ctx.drf;
  const { limit } = policy.paginator.params(ctx);
  const by = await actor(ctx, m, name, made);
  const op = await operations.read(by);
  return {
    db, model: m, id, params: ctx.params, limit, version: ctx.version, path, engine, actor: by, op,
    // What the action chose to answer with, as Nautobot's action views serialize it: not
    // narrowed to what the requester may view (a dynamic group's members are its members,
    // nautobot/extras/api/views.py:349); a hook narrows with `permitted` where Nautobot does.
    read: (refs, shape) => store.readRefs(op, refs, { ...readOpts(ctx), shape, unscoped: true }),
    list: (lm, filter, exclude = []) => {
      const opts = readOpts(ctx);
      return store.list(op, lm, filter, policy.paginator.params(ctx), { ...opts, exclude: [...opts.exclude, ...exclude], unscoped: true });
    },
    permitted: (pm, action, alias) => op.scope(pm, alias, action),
    ...(graphql ? { graphql: (request) => answerGraphql(graphql, op, request, requesterOf()) } : {}),
  };
}

/** Runs the hook of an action the requester may use, and sends what it answers. */
export async function answerAction(ctx: Ctx, m: ModelDescriptor, act: Action, id: string | null, path: Record<string, string>,
  given?: ActionEvent): Promise<void> {
  const { policy } = ctx.drf;
  const event = given ?? await actionEvent(ctx, m, act.name, id, path);
  if (ctx.req.method === "POST" && act.multipart && contentType(ctx.req) === "multipart/form-data") event.form = await readForm(ctx);
  else if (ctx.req.method === "POST") event.body = readJson(ctx);
  const answer = await m.hooks!.actions![act.name](event);
  if (answer instanceof Answer) return policy.renderer(ctx, answer.status, answer.body);
  const status = act.status ?? 200;
  // Nothing to say is an empty body, as DRF renders a Response without data.
  if (answer === undefined) {
    ctx.res.status(status).type("json").end();
    return;
  }
  if (!act.paginated) return policy.renderer(ctx, status, answer);
  // A hook that chose its page (event.list) answers with it; otherwise the whole list is cut here.
  policy.renderer(ctx, status, policy.paginator.cut(ctx, answer as unknown[] | { count: number; results: unknown[] }));
}

/**
 * A POST to an action that creates objects (operations/allocations.ts): one body or a list, all
 * or none. Its object is sought by its batch, unless the body is refused first: a missing
 * object is still the answer before a bad body.
 */
async function allocate(ctx: Ctx, name: string, made: ModelDescriptor, event: ActionEvent, reachable: () => Promise<boolean>): Promise<void> {
  const { allocations, policy } = ctx.drf;
  const body = readJson(ctx);
  const many = Array.isArray(body);
  const items: unknown[] = many ? body : [body];
  // The hook meets objects only: anything else is refused as a create would refuse it.
  const shapes = items.map((i): FieldErrors => notAnObject(i) ?? {});
  if (shapes.some((x) => Object.keys(x).length)) {
    if (!(await reachable())) throw notFound();
    throw new ValidationError(many ? shapes : shapes[0]);
  }
  const opts = { version: ctx.version, partial: false };
  const result = await allocations.allocate({ actor: event.actor, m: event.model, name, made, event, items: items as Array<Record<string, unknown>>, many, opts, read: readOpts(ctx) });
  // DRF sends the detail with its 204; HTTP allows no body there, so only the status arrives.
  if ("shortage" in result) {
    ctx.res.status(204).end();
    return;
  }
  policy.renderer(ctx, 201, many ? result.objects : result.objects[0]);
}
