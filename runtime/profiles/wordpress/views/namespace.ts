// GET of the namespace: its routes, as the REST index lists them.
import { WpError } from "../errors.js";
import { respond, type WpContext } from "../context.js";
import { describeRoute } from "../routes.js";

export function namespaceView(ctx: WpContext): void {
  const { api, ns } = ctx.wp;
  const asked = ctx.params.namespace === undefined ? ns : ctx.params.namespace;
  if (asked !== ns) throw new WpError(404, "rest_invalid_namespace", "The specified namespace could not be found.");
  respond(ctx, 200, {
    namespace: ns,
    routes: Object.fromEntries((api.routes ?? []).map((r) => [r.regex, describeRoute(r, ns, ctx.rootUrl)])),
    _links: { up: [{ href: `${ctx.rootUrl}/` }] },
  });
}
