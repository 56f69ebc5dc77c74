// GET of the REST root: the site, its namespaces, authentication and every route (the root's
// own, then the API's table), as WordPress's index shows them.
import { respond, type WpContext } from "../context.js";
import { describeRoute } from "../routes.js";

export function restIndexView(ctx: WpContext): void {
  const { api, ns, tz } = ctx.wp;
  respond(ctx, 200, {
    name: api.title,
    description: api.description,
    url: ctx.site.origin,
    home: ctx.site.origin,
    gmt_offset: "0",
    timezone_string: tz,
    namespaces: [ns],
    authentication: {
      "application-passwords": { endpoints: { authorization: `${ctx.site.origin}/wp-admin/authorize-application.php` } },
    },
    routes: Object.fromEntries([
      ["/", { namespace: "", methods: ["GET"], endpoints: [{ methods: ["GET"], args: { context: { default: "view", required: false } } }], _links: { self: [{ href: `${ctx.rootUrl}/` }] } }],
      ...(api.routes ?? []).map((r) => [r.regex, describeRoute(r, ns, ctx.rootUrl)]),
    ]),
    _links: { help: [{ href: "https://developer.wordpress.org/rest-api/" }] },
  });
}
