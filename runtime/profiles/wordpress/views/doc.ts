// GET of the namespace's OpenAPI document: JSON, with the namespace's URL as its server; or,
// for a browser, Swagger UI on it (the page asks for the document as JSON).
import { openApiDocument } from "../../../artifacts.js";
import { cspNonce } from "../../../http/security.js";
import { templates } from "../../../http/templates.js";
import { respond, type WpContext } from "../context.js";

export function docView(ctx: WpContext): void {
  const { api, ns, config, policy } = ctx.wp;
  if (!policy.negotiator.wantsHtml(ctx.req)) {
    const document = openApiDocument(api, api.versions.default);
    return respond(ctx, 200, { ...document, servers: [{ url: `${ctx.site.nsUrl}/` }] });
  }
  const base = `${config.wpApiRoot}/${ns}/doc`;
  policy.renderer.html(ctx.res, templates.swagger({ title: api.title, assets: `${base}/static`, schemaUrl: JSON.stringify(base), nonce: cspNonce(ctx.res) }));
}
