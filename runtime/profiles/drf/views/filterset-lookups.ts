// `core/filterset-fields/…`: the lookups of a model's filter and the form element of one,
// which Nautobot's filter form asks for (filterset-fields.ts).
import type { Ctx } from "../context.js";
import { unauthenticated } from "../permission.js";
import { filterDomElement, filtersetQuery, lookupChoices } from "../filterset-fields.js";
import { only } from "./allow.js";

export function filtersetLookups(ctx: Ctx): Promise<void> | void {
  return only(ctx, ["GET"], () => {
    const { index, api, policy } = ctx.drf;
    if (!ctx.identity) throw unauthenticated();
    const { model, field } = filtersetQuery(ctx.params, index.byKey);
    if (ctx.match.route.action === "lookup-choices") return policy.renderer(ctx, 200, policy.paginator.whole(lookupChoices(model, field)));
    policy.renderer(ctx, 200, { dom_element: filterDomElement(model, field, (key) => index.byKey.get(key), api.basePath) });
  });
}
