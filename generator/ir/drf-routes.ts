// The route table of a DRF-style API, decided at generate time from its models: every path
// the profile serves, with the view that answers it, its methods and placeholders. Emitted
// into the API descriptor (`drfRoutes`): the runtime profile dispatches from it, in order.
import { FEATURE_ROUTES, modelRoute, type ApiDescriptor, type DrfRoute, type ModelDescriptor, type Operation } from "../../runtime/descriptor.js";
import { PLUGINS_ROUTE } from "./names.js";

type RouteSource = Pick<ApiDescriptor, "apps" | "models" | "auth" | "plugins">;

/** Nautobot's list of the installed apps, below `plugins/`. */
const INSTALLED_PLUGINS_ROUTE = "installed-plugins";

/** The route, in the users' app, of the requester's own settings (Nautobot's UserConfigViewSet). */
const SETTINGS_ROUTE = "config";
/** GraphQL below the base path (Nautobot's `/api/graphql/`). */
const GRAPHQL_ROUTE = "graphql";
/** The filter-form helpers Nautobot's UI asks for (its `core/filterset-fields/` views). */
const FILTERSET_LOOKUPS = ["lookup-choices", "lookup-value-dom-element"];

const placeholders = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]);

function route(path: string, view: DrfRoute["view"], methods: string[], more: Partial<DrfRoute> = {}): DrfRoute {
  return { path, view, methods, params: placeholders(path), ...more };
}

/** The methods a model's list or detail answers, from the operations it offers. */
function modelMethods(m: ModelDescriptor, list: boolean): string[] {
  const ops = new Set<Operation>(m.operations);
  return [
    ...(ops.has(list ? "list" : "retrieve") ? ["GET"] : []), ...(list && ops.has("create") ? ["POST"] : []),
    ...(ops.has("update") ? ["PUT", "PATCH"] : []), ...(ops.has("delete") ? ["DELETE"] : []),
  ];
}

type Action = NonNullable<ModelDescriptor["actions"]>[number];

function actionMethods(a: Action): string[] {
  return a.method === "POST" ? ["POST"] : a.creates ? ["GET", "POST"] : ["GET"];
}

/** Every route of the API, the ones that must win a path first. */
export function drfRoutes(api: RouteSource): DrfRoute[] {
  const routes: DrfRoute[] = [route("", "root", ["GET"])];
  if (api.auth?.tokens) routes.push(route("login/", "login", ["GET", "POST"]), route("logout/", "logout", ["POST"]));
  routes.push(
    route(`${GRAPHQL_ROUTE}/`, "graphql", ["GET", "POST"]),
    route("status/", "status", ["GET"]),
    route("docs/", "docs", ["GET"]),
    route("redoc/", "redoc", ["GET"]),
    route("swagger/", "swagger", ["GET"], { document: "both" }),
    ...api.apps.map((app) => (app === PLUGINS_ROUTE ? route(`${app}/`, "plugins", ["GET"]) : route(`${app}/`, "app-root", ["GET"], { app }))),
    route("swagger.json", "swagger", ["GET"], { document: "json" }),
    route("swagger.yaml", "swagger", ["GET"], { document: "yaml" }),
    ...FILTERSET_LOOKUPS.map((lookup) => route(`core/filterset-fields/${lookup}/`, "filterset-fields", ["GET"], { action: lookup })),
  );
  if (api.apps.includes(PLUGINS_ROUTE)) routes.push(route(`${PLUGINS_ROUTE}/${INSTALLED_PLUGINS_ROUTE}/`, "installed-plugins", ["GET"]));
  for (const p of api.plugins ?? []) routes.push(route(`${p.base}/`, "app-root", ["GET"], { app: p.base, plugin: p.name }));
  for (const m of api.models) for (const l of m.listings ?? []) routes.push(route(`${m.app}/${l.route}/`, "listing", ["GET"], { model: m.key }));
  const users = api.auth?.settings ? api.models.find((m) => m.key === api.auth!.users) : undefined;
  if (users) routes.push(route(`${users.app}/${SETTINGS_ROUTE}/`, "settings", ["GET", "PATCH"], { model: users.key }));
  for (const m of api.models) {
    for (const a of m.actions ?? []) if (a.onApp) routes.push(route(`${m.app}/${a.name}/`, "action", actionMethods(a), { model: m.key, action: a.name }));
  }
  for (const m of api.models) {
    const own = modelRoutes(api, m);
    routes.push(...(m.plugin ? own.map((r) => ({ ...r, plugin: m.plugin!.name })) : own));
  }
  return routes;
}

/** A model's list and detail, its actions and notes, and the redirects of its paths written without their trailing slash. */
function modelRoutes(api: RouteSource, m: ModelDescriptor): DrfRoute[] {
  const base = modelRoute(m);
  const listedBy = m.actions?.find((a) => a.servesList);
  const routes = [
    route(`${base}/`, "list", modelMethods(m, true), { model: m.key, ...(listedBy ? { listedBy: { action: listedBy.name, ...listedBy.servesList } } : {}) }),
    route(`${base}/{id}/`, "detail", modelMethods(m, false), { model: m.key }),
  ];
  for (const a of m.actions ?? []) {
    if (a.onApp || a.servesList) continue;
    const path = a.path ? `${base}/${a.path.join("/")}/` : `${base}/{id}/${a.name}/`;
    routes.push(route(path, "action", actionMethods(a), { model: m.key, action: a.name, ...(a.path ? { pathAction: true } : {}) }));
  }
  for (const f of FEATURE_ROUTES) if (m.features[f.feature]) routes.push(route(`${base}/{id}/${f.path}`, f.view, f.methods, { model: m.key }));
  routes.push(route(base, "redirect", ["*"]), route(`${base}/{id}`, "redirect", ["*"], { except: ["POST"] }));
  return routes;
}
