// OPTIONS of a route of the API's table: the route as the REST index describes it, its
// methods in `Allow`.
import type { WpRoute } from "../../../descriptor.js";
import { respond, type WpContext } from "../context.js";
import { describeRoute } from "../routes.js";

export function optionsView(ctx: WpContext, route: WpRoute): void {
  const info = describeRoute(route, ctx.wp.ns, ctx.rootUrl);
  respond(ctx, 200, info, { Allow: (info.methods as string[]).join(", ") });
}
