// The REST index's view of a WordPress-style API's routes (the table itself is generated:
// ApiDescriptor.routes); dispatching from it is in dispatch.ts.
import type { WpRoute } from "../../descriptor.js";

/** A route as the REST index shows it. */
export function describeRoute(r: WpRoute, namespace: string, rootUrl: string): Record<string, unknown> {
  const methods = [...new Set(r.endpoints.flatMap((e) => e.methods))];
  return {
    namespace,
    methods,
    endpoints: r.endpoints.map((e) => ({ methods: e.methods, args: Object.keys(e.args).length ? e.args : [] })),
    ...(r.regex.includes("(?P<") ? {} : { _links: { self: [{ href: `${rootUrl}${r.regex}` }] } }),
  };
}
