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
    const { index, policy } = ctx.drf;
    const made = act.creates && ctx.req.method === "POST" ? index.model(act.creates.model) : undefined;
    const permission = act.permission ?? actionOf(ctx.req.method);
    await policy.permission.authorize(ctx, made ?? m, permission);
    const id = route.pathAction ? null : params.id?.toLowerCase() ?? null;
    if (id !== null && !(await policy.permission.visible(ctx, m, id, made ? "view" : permission ?? "view"))) throw notFound();
    const path = route.pathAction ? params : {};
    if (made) return allocate(ctx, m, act.name, made, actionEvent(ctx, m, act.name, id, path));
    return answerAction(ctx, m, act, id, path);
  });
}

/** What an action's hook is given (see ActionEvent). */
function actionEvent(ctx: Ctx, m: ModelDescriptor, name: string, id: string | null, path: Record<string, string>): ActionEvent {
  const { db, engine, store, graphql, policy } = ctx.drf;
  const { limit } = policy.paginator.params(ctx);
  return {
    db, model: m, id, params: ctx.params, limit, version: ctx.version, path, engine, actor: actor(ctx, m, name),
    read: (refs, shape) => store.readRefs(db, refs, { ...readOpts(ctx), shape }),
    list: (lm, filter, exclude = []) => {
      const opts = readOpts(ctx);
      return store.list(db, lm, filter, policy.paginator.params(ctx), { ...opts, exclude: [...opts.exclude, ...exclude] });
    },
    permitted: (pm, action, alias) => policy.permission.condition(ctx, pm, action, alias),
    ...(graphql ? { graphql: (request) => answerGraphql(graphql, request, requesterOf(graphql, ctx.identity, ctx.grants)) } : {}),
  };
}

/** Runs the hook of an action the requester may use, and sends what it answers. */
export async function answerAction(ctx: Ctx, m: ModelDescriptor, act: Action, id: string | null, path: Record<string, string>): Promise<void> {
  const { permissions, policy } = ctx.drf;
  if (permissions && ctx.identity) await policy.permission.grantsOf(ctx);
  const event = actionEvent(ctx, m, act.name, id, path);
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

/** A POST to an action that creates objects (operations/allocations.ts): one body or a list, all or none. */
async function allocate(ctx: Ctx, m: ModelDescriptor, name: string, made: ModelDescriptor, event: ActionEvent): Promise<void> {
  const { allocations, store, db, policy } = ctx.drf;
  const body = readJson(ctx);
  const many = Array.isArray(body);
  const items: unknown[] = many ? body : [body];
  // The hook meets objects only: anything else is refused as a create would refuse it.
  const shapes = items.map((i): FieldErrors => notAnObject(i) ?? {});
  if (shapes.some((x) => Object.keys(x).length)) throw new ValidationError(many ? shapes : shapes[0]);
  const opts = { version: ctx.version, userId: ctx.identity?.userId, partial: false };
  const result = await allocations.allocate({ actor: actor(ctx, m, name, made), m, name, made, event, items: items as Array<Record<string, unknown>>, many, opts });
  // DRF sends the detail with its 204; HTTP allows no body there, so only the status arrives.
  if ("shortage" in result) {
    ctx.res.status(204).end();
    return;
  }
  const objects = await store.fetch(db, made, result.ids, readOpts(ctx));
  policy.renderer(ctx, 201, many ? objects : objects[0]);
}
