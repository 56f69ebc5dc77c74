// What views share about methods: the Allow header, OPTIONS and the 405, for a route of fixed
// methods (`only`) and for a model's list or detail (`modelMethod`), whose OPTIONS describes
// the model and the writes this requester may use.
import { HttpError } from "../../../errors.js";
import type { ModelDescriptor } from "../../../descriptor.js";
import { actionOf, optionsContributions } from "../../../features/index.js";
import { describeModel } from "../metadata.js";
import type { FieldInfo } from "../browsable.js";
import { unauthenticated } from "../permission.js";
import type { Ctx } from "../context.js";
import { requestActor } from "../request.js";

export const notAllowed = (method: string) => new HttpError(405, `Method "${method}" not allowed.`, "method_not_allowed");

/** Serves `run` for `methods` (and GET, HEAD, OPTIONS), with DRF's plain OPTIONS answer. */
export function only(ctx: Ctx, methods: string[], run: () => Promise<void> | void): Promise<void> | void {
  const allowed = [...methods, "HEAD", "OPTIONS"];
  ctx.res.set("Allow", allowed.join(", "));
  if (ctx.req.method === "OPTIONS") return ctx.drf.policy.renderer(ctx, 200, { name: "", description: "", renders: ["application/json", "text/html"], parses: ["application/json"] });
  if (ctx.req.method !== "GET" && ctx.req.method !== "HEAD" && !methods.includes(ctx.req.method)) throw notAllowed(ctx.req.method);
  return run();
}

/**
 * What list and detail routes share: the Allow header, OPTIONS (with the write actions
 * this requester may use among `actions`), 405, then authorization. Gives the method to
 * serve (HEAD served as GET), or null when OPTIONS was answered.
 */
export async function modelMethod(ctx: Ctx, m: ModelDescriptor, actions: string[]): Promise<string | null> {
  const { db, index, api, permissions, userModel, policy } = ctx.drf;
  const methods = ctx.match.route.methods;
  ctx.res.set("Allow", [...methods, "HEAD", "OPTIONS"].join(", "));
  const method = ctx.req.method === "HEAD" ? "GET" : ctx.req.method;
  if (method === "OPTIONS") {
    if (!ctx.identity) throw unauthenticated();
    const mayWrite = !policy.permission.readOnly(ctx) && (permissions ? true : !(m === userModel && !ctx.identity.isSuperuser));
    const grants = permissions && await policy.permission.grantsOf(ctx);
    const allowed = methods.filter((x) => actions.includes(x) && (!grants || permissions!.holds(grants, m, actionOf(x)!)));
    // The choices are reads like any other: a replica's, where the requester's writes are.
    const { trx: reads } = await ctx.drf.operations.read(await requestActor(ctx, "options", m.key));
    let info = await describeModel(reads, index, m, ctx.version, mayWrite ? allowed : []);
    // What the features add (custom fields' own metadata), in the registry's order.
    for (const add of optionsContributions(index)) info = await add(reads, m, ctx.version, api.versions.supported, info);
    policy.renderer(ctx, 200, info);
    return null;
  }
  if (!methods.includes(method)) throw notAllowed(ctx.req.method);
  await policy.permission.authorize(ctx, m);
  // The browsable view's HTML forms are built from the same field metadata OPTIONS gives.
  if (ctx.renderer === "html" && ctx.view && method === "GET" && ctx.identity) {
    ctx.view.fields = ((await describeModel(db, index, m, ctx.version, ["POST"])).actions as Record<string, Record<string, FieldInfo>>).POST;
  }
  return method;
}
