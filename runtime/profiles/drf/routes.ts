// The DRF profile's dispatcher: the API's generated route table (ApiDescriptor.drfRoutes)
// as a tree of path segments, built once. A request's path is matched segment by segment,
// a literal before a placeholder, and the table's order decides between routes of one path.
import type { DrfRoute } from "../../descriptor.js";

export interface RouteMatch {
  route: DrfRoute;
  /** What each placeholder of the route took, by name. */
  params: Record<string, string>;
}

interface Node {
  literals: Map<string, Node>;
  param?: Node;
  routes: DrfRoute[];
}

const node = (): Node => ({ literals: new Map(), routes: [] });
const PLACEHOLDER = /^\{.+\}$/;

export class RouteTable {
  private readonly root = node();

  constructor(readonly routes: DrfRoute[]) {
    for (const r of routes) {
      let at = this.root;
      for (const part of r.path.split("/")) {
        if (PLACEHOLDER.test(part)) at = at.param ??= node();
        else {
          const next = at.literals.get(part) ?? node();
          at.literals.set(part, next);
          at = next;
        }
      }
      at.routes.push(r);
    }
  }

  /** The route serving `path` (below the base path, without its leading `/`) for `method`, if one does. */
  match(path: string, method: string): RouteMatch | undefined {
    return find(this.root, path.split("/"), 0, [], method);
  }
}

function find(at: Node, segments: string[], i: number, values: string[], method: string): RouteMatch | undefined {
  if (i === segments.length) {
    for (const route of at.routes) {
      const found = fits(route, values, method);
      if (found) return found;
    }
    return undefined;
  }
  const literal = at.literals.get(segments[i]);
  const byLiteral = literal && find(literal, segments, i + 1, values, method);
  if (byLiteral || !at.param) return byLiteral;
  values.push(segments[i]);
  const byParam = find(at.param, segments, i + 1, values, method);
  values.pop();
  return byParam;
}

function fits(route: DrfRoute, values: string[], method: string): RouteMatch | undefined {
  if (route.except?.includes(method)) return undefined;
  if (route.pathAction && values.some((v) => v === "")) return undefined;
  const taken = route.pathAction ? values.map((v) => decodeURIComponent(v)) : values;
  return { route, params: Object.fromEntries(route.params.map((name, i) => [name, taken[i]])) };
}
