// OpenAPI 3.1 emitter for the DRF-style profile: one document per API version with the
// list/detail/bulk paths of every model, the pagination envelope, the brief form, the
// query filters, token security and the DRF error shapes. Pure: IR in, document out.
// The document describes every exchange the server accepts, as a validating proxy must see
// them: a GET answers in the full or the brief form (`anyOf`), a list's POST takes one object
// or an array and answers in kind (`oneOf`). Typed clients want one exchange per operation:
// runtime/profiles/drf/documents.ts derives those documents from this one, by these shapes.
import type { DrfRoute, DrfView } from "../../../runtime/descriptor.js";
import type { IrApi } from "../../ir/index.js";
import { byCodePoint } from "../../ir/names.js";
import { ERROR_DETAIL, METADATA, METADATA_FIELD, RESPONSES, routesOf, VALIDATION_ERROR } from "./drf-common.js";
import { actionPath, detailPath, listingPath, listPath, notesPath } from "./drf-model-paths.js";
import { modelComponents } from "./drf-models.js";
import { SharedParameters } from "./parameters.js";
import { shareSchemas } from "./share-schemas.js";
import { appRootPath, installedPluginsPath, pluginsPath, docsPath, filtersetPath, graphqlPath, loginPath, logoutPath, redocPath, rootPath, settingsPath, statusPath, swaggerPath } from "./drf-site-paths.js";
import { modelByKey, type Schema } from "./schemas.js";

/** The path item each kind of view is documented by. */
const PATHS: Record<Exclude<DrfView, "redirect">, (api: IrApi, route: DrfRoute, version: string) => Schema> = {
  list: listPath, detail: detailPath, listing: listingPath, action: actionPath, notes: notesPath,
  settings: settingsPath, status: statusPath, root: rootPath, "app-root": appRootPath,
  docs: docsPath, redoc: redocPath, swagger: swaggerPath, "filterset-fields": filtersetPath,
  login: loginPath, logout: logoutPath, graphql: graphqlPath, plugins: pluginsPath, "installed-plugins": installedPluginsPath,
};


/** Every route of the table but its redirects, documented at its path; their parameters shared, by model where a model owns the path. */
function documentedPaths(api: IrApi, version: string): { paths: Record<string, Schema>; parameters: SharedParameters } {
  const byPath = new Map<string, { item: Schema; owner: string }>();
  for (const route of routesOf(api)) {
    if (route.view === "redirect") continue;
    const owner = route.model && route.view !== "settings" ? modelByKey(api, route.model).name : route.path;
    byPath.set(`${api.basePath}${route.path}`, { item: PATHS[route.view](api, route, version), owner });
  }
  const parameters = new SharedParameters();
  const paths = Object.fromEntries([...byPath.keys()].sort(byCodePoint).map((k) => [k, parameters.share(byPath.get(k)!.item, byPath.get(k)!.owner)]));
  return { paths, parameters };
}

export function emitDrfOpenApi(api: IrApi, version: string): Schema {
  const schemas: Record<string, Schema> = { Error: ERROR_DETAIL, ValidationError: VALIDATION_ERROR, Metadata: METADATA, MetadataField: METADATA_FIELD };
  for (const m of api.models) Object.assign(schemas, modelComponents(api, m, version));
  const { paths, parameters } = documentedPaths(api, version);
  return shareSchemas({
    openapi: "3.1.0",
    info: { title: api.title, version, description: api.description },
    servers: [{ url: "/" }],
    security: [{ tokenAuth: [] }],
    tags: [...api.apps, ...(api.plugins ?? []).map((p) => p.label)].map((a) => ({ name: a })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.keys(schemas).sort(byCodePoint).map((k) => [k, schemas[k]])),
      parameters: parameters.components(),
      responses: RESPONSES,
      securitySchemes: {
        tokenAuth: { type: "apiKey", in: "header", name: "Authorization", description: "`Token <40 hex characters>`" },
        basicAuth: { type: "http", scheme: "basic" },
      },
    },
  });
}
