// The paths of the DRF document that no model owns: the roots, status, settings, the docs and
// schema views, login and logout, GraphQL and the filter-form helpers. Takes the IR and one
// route of the route table; gives the path item.
import type { DrfRoute, DrfView } from "../../../runtime/descriptor.js";
import type { IrApi } from "../../ir/index.js";
import { byCodePoint } from "../../ir/names.js";
import { errorResponse, json, NEGOTIATED, optionsOperation, respond, RESPONSES, routeModel, routesOf, throttled } from "./drf-common.js";
import { ref, type Schema } from "./schemas.js";

const html = { "text/html": { schema: { type: "string" } } };
const signedRedirect = { description: "Logged in (or out); redirect to `next` or the API root", headers: { Location: { schema: { type: "string" } } } };

/** `login/`, the browsable view's: a session token in an HttpOnly cookie, writing only with its CSRF token. */
export function loginPath(): Schema {
  return {
    get: {
      operationId: "login_form", summary: "The browser login form", security: [],
      parameters: [{ name: "next", in: "query", required: false, schema: { type: "string" }, description: "Where to go after logging in (a path on this site)." }],
      responses: { "200": { description: "The form", content: html }, ...NEGOTIATED },
    },
    post: {
      operationId: "login", summary: "Log a browser in: sets an expiring session cookie, honoured on GET, HEAD and OPTIONS, and on writes that send the CSRF token its pages carry (`X-CSRFToken`)", security: [],
      requestBody: {
        required: true,
        content: { "application/x-www-form-urlencoded": { schema: { type: "object", properties: { username: { type: "string" }, password: { type: "string" }, next: { type: "string" } }, required: ["username", "password"] } } },
      },
      responses: {
        ...NEGOTIATED,
        "302": signedRedirect, "403": { description: "Invalid username/password (the form again), or a malformed Authorization header", content: { ...html, ...json(ref("Error")) } },
        "429": throttled((description) => ({ description, content: html })),
      },
    },
    options: { ...optionsOperation("login_options", []), security: [] },
  };
}

/** `logout/`: POST alone (its OPTIONS is a 405). */
export function logoutPath(): Schema {
  return {
    post: {
      operationId: "logout", summary: "Log a browser out: deletes its session token and cookie", security: [],
      responses: { "302": signedRedirect, ...NEGOTIATED },
    },
  };
}

/**
 * `graphql/`: a query or mutation POSTed as JSON or as `application/graphql` text (a refused
 * mutation answers with the REST write's status, in GraphQL's form), and GraphiQL for a
 * browser's GET (runtime/profiles/drf/views/graphql.ts). Its OPTIONS is a 405, as any other
 * method: it answers POST alone, and GET only in HTML.
 */
export function graphqlPath(): Schema {
  const refusal = { type: "object", properties: { data: { type: "null" }, errors: { type: "array", items: { type: "object", properties: { message: { type: "string" }, path: { type: "array" }, extensions: { type: "object" } }, required: ["message", "extensions"] } } }, required: ["data", "errors"], additionalProperties: false };
  // The API's own error (`{"detail": …}`), or a refused mutation's answer in GraphQL's form.
  const refusedOr = (name: "Forbidden" | "NotFound" | "Conflict", what: string) => ({
    description: `${String(RESPONSES[name].description)}; or ${what.charAt(0).toLowerCase()}${what.slice(1)}`,
    content: json({ anyOf: [ref("Error"), refusal] }),
  });
  const answer = {
    type: "object",
    properties: { data: { description: "The query's result: null when a field failed at the root" }, errors: { type: "array", items: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } } },
    additionalProperties: false,
  };
  const query = {
    type: "object",
    properties: { query: { type: "string" }, variables: { type: ["object", "null"] }, operationName: { type: ["string", "null"] } },
    required: ["query"],
  };
  return {
    get: {
      operationId: "graphql_graphiql", summary: "GraphiQL, for a browser (an Accept that prefers HTML, or `?format=api`); any other GET is a 405",
      responses: { "200": { description: "The GraphiQL page", content: html }, "405": errorResponse("GraphQL takes POST"), ...NEGOTIATED },
    },
    post: {
      operationId: "graphql",
      summary: "Run a GraphQL query (each model's rows are those the requester may view) or mutation (all of a document's mutations written as REST writes them, or none)",
      requestBody: { required: true, content: { ...json(query), "application/graphql": { schema: { type: "string", description: "The query itself" } } } },
      responses: {
        "200": { description: "The query ran: its data, and the errors of the fields that failed; or every mutation was written", content: json({ ...answer, required: ["data"] }) },
        "400": { description: "The document was refused before it ran (unreadable, invalid, too deep or too large), or a mutation's input was refused and nothing written: its errors", content: json({ ...answer, required: ["errors"] }) },
        "403": refusedOr("Forbidden", "A mutation the requester may not make: nothing written"),
        "404": refusedOr("NotFound", "A mutation of an object the requester cannot reach: nothing written"),
        "409": refusedOr("Conflict", "A delete other objects protect: nothing written"),
        "406": respond("NotAcceptable"), "413": respond("TooLarge"),
      },
    },
  };
}

/** `/status/`: the versions the api's STATUS setting claims, then the server's own facts. */
function statusSchema(api: IrApi): Schema {
  const text = { type: "string" };
  const count = { type: "integer", minimum: 0 };
  const properties: Record<string, Schema> = {
    ...Object.fromEntries(Object.keys((api.settings.STATUS as Record<string, string> | undefined) ?? {}).map((k) => [k, text])),
    "installed-apps": { type: "object", additionalProperties: { type: ["string", "null"] } },
    plugins: { type: "object" },
    "rq-workers-running": count,
    "celery-workers-running": count,
    "armature-version": text,
    "api-versions": { type: "array", items: text },
    "node-version": text,
    "database-version": text,
  };
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

/** A path that takes only GET: its one operation, OPTIONS (answered to anyone there), and the refusals any path may get. */
function getOnly(operation: Schema, tags: string[] = []): Schema {
  return {
    get: { ...operation, responses: { ...(operation.responses as Schema), ...NEGOTIATED } },
    options: { ...optionsOperation(`${String(operation.operationId)}_options`, tags), security: [] },
  };
}

/** `<users app>/config/`: the requester's own settings, read, and merged into by a PATCH. */
export function settingsPath(api: IrApi, route: DrfRoute): Schema {
  const app = routeModel(api, route).app;
  const settings = { type: "object", additionalProperties: true };
  const answer = { "200": { description: "The requester's settings", content: json(settings) }, ...NEGOTIATED };
  return {
    get: { operationId: `${app}_config_list`, summary: "The requester's own settings", tags: [app], responses: answer },
    patch: {
      operationId: `${app}_config_partial_update`, summary: "Merges the body into the requester's own settings (objects merged key by key, other values replaced)",
      tags: [app], requestBody: { required: true, content: json(settings) }, responses: { ...answer, "415": respond("UnsupportedMediaType") },
    },
    options: optionsOperation(`${app}_config_options`, [app]),
  };
}

/** A reply of links, one per name. */
const links = (names: string[]): Schema => ({
  "200": { description: "Links", content: json({ type: "object", properties: Object.fromEntries(names.map((a) => [a, { type: "string", format: "uri" }])), required: names, additionalProperties: false }) },
});

export function rootPath(api: IrApi): Schema {
  return getOnly({ operationId: "api_root", summary: "The API root: a link to each application", security: [], responses: links([...api.apps, ...api.rootLinks].sort(byCodePoint)) });
}

/** The views an app's root links to: the routes one segment below it (as the runtime lists them). */
const APP_LISTED = new Set<DrfView>(["list", "listing", "action", "settings"]);

export function appRootPath(api: IrApi, route: DrfRoute): Schema {
  const app = route.app!;
  const names = routesOf(api).flatMap((r) => {
    const [first, name, end, ...rest] = r.path.split("/");
    return first === app && end === "" && !rest.length && !r.params.length && APP_LISTED.has(r.view) ? [name] : [];
  }).sort(byCodePoint);
  return getOnly({ operationId: `${app}_root`, summary: `The ${app} application: a link to each model`, tags: [app], security: [], responses: links(names) }, [app]);
}

export function statusPath(api: IrApi): Schema {
  return getOnly({
    operationId: "status", summary: "Server status (authenticated users)",
    responses: { "200": { description: "Versions and installed applications", content: json(statusSchema(api)) } },
  });
}

/**
 * The documents derived from this one with one exchange per operation, for typed clients
 * (runtime/profiles/drf/documents.ts derives them; an unknown form is a 404).
 */
const FORM = {
  name: "form", in: "query", required: false, schema: { enum: ["full", "brief", "bulk"] },
  description: "A document with one exchange per operation instead of this one: `full` (GETs in the full form, POSTs of one object), "
    + "`brief` (the GETs that have a brief form, in it) or `bulk` (the POSTs that take an array, with arrays).",
};
const DOCUMENT = { type: "object", properties: { openapi: { type: "string" } }, required: ["openapi", "info", "paths"] };
const YAML = { type: "string", description: "The document in YAML" };

/** `docs/`: Swagger UI, or with `?format=openapi` the document of the version asked. */
export function docsPath(): Schema {
  return getOnly({
    operationId: "docs", summary: "Swagger UI for this version's document; with `?format=openapi`, the document itself (as pynautobot's `openapi()` reads it)", security: [],
    parameters: [{ name: "format", in: "query", required: false, schema: { enum: ["openapi", "json", "api"] }, description: "`openapi` answers with the OpenAPI document of the version asked (`api_version` or the Accept header)." }, FORM],
    responses: { "200": { description: "The page, or the document", content: { "text/html": { schema: { type: "string" } }, "application/json": { schema: DOCUMENT } } } },
  });
}

export function redocPath(): Schema {
  return getOnly({
    operationId: "redoc", summary: "ReDoc for this version's document", security: [],
    responses: { "200": { description: "The page", content: { "text/html": { schema: { type: "string" } } } } },
  });
}

/** `swagger.json`, `swagger.yaml` and `swagger/` (either, negotiated): the document of the version asked. */
export function swaggerPath(_api: IrApi, route: DrfRoute): Schema {
  const asJson = { "application/vnd.oai.openapi+json": { schema: DOCUMENT }, "application/json": { schema: DOCUMENT } };
  const asYaml = { "application/vnd.oai.openapi": { schema: YAML }, "application/yaml": { schema: YAML } };
  const answer = (content: Schema) => ({ "200": { description: "The document", content } });
  switch (route.document) {
    case "json": return getOnly({
      operationId: "schema", summary: "The OpenAPI document of the version asked (`api_version` or the Accept header)", security: [], parameters: [FORM], responses: answer(asJson),
    });
    case "yaml": return getOnly({
      operationId: "schema_yaml", summary: "The OpenAPI document of the version asked, in YAML", security: [], parameters: [FORM], responses: answer(asYaml),
    });
    default: {
      const format = { name: "format", in: "query", required: false, schema: { enum: ["yaml", "json"] }, description: "`json` answers in JSON, as a JSON media type in the Accept header does." };
      return getOnly({
        operationId: "schema_negotiated", summary: "The OpenAPI document of the version asked, in YAML unless JSON is asked for", security: [], parameters: [format, FORM],
        responses: answer({ ...asYaml, ...asJson }),
      });
    }
  }
}

const LOOKUP_CHOICE = { type: "object", properties: { id: { type: "string" }, name: { type: "string" } }, required: ["id", "name"], additionalProperties: false };
/** What each filter-form helper answers. */
const FILTERSET_LOOKUPS: Record<string, Schema> = {
  "lookup-choices": {
    operationId: "core_filterset_fields_lookup_choices", summary: "The lookup expressions the filter set offers for a field (`name__ic`: contains (ic)), with their labels (authenticated users)",
    responses: { "200": { description: "The lookups", content: json({
      type: "object", required: ["count", "next", "previous", "results"], additionalProperties: false,
      properties: { count: { type: "integer", minimum: 0 }, next: { type: "null" }, previous: { type: "null" }, results: { type: "array", items: LOOKUP_CHOICE } },
    }) } },
  },
  "lookup-value-dom-element": {
    operationId: "core_filterset_fields_lookup_value_dom_element", summary: "The HTML form input of a filter field (authenticated users)",
    responses: { "200": { description: "The input", content: json({ type: "object", properties: { dom_element: { type: "string" } }, required: ["dom_element"], additionalProperties: false }) } },
  },
};

/** `core/filterset-fields/…`: what the filter form asks of a model's filter set (Nautobot's core API). */
export function filtersetPath(_api: IrApi, route: DrfRoute): Schema {
  const operation = FILTERSET_LOOKUPS[route.action!];
  const parameters = [
    { name: "content_type", in: "query", required: true, schema: { type: "string" }, description: "The model, as `<app>.<model>`" },
    { name: "field_name", in: "query", required: true, schema: { type: "string" }, description: "A filter parameter of the model's list" },
  ];
  const refusal = (description: string) => ({ description, content: json({ type: "string" }) });
  const refusals = {
    "400": refusal("`content_type and field_name are required parameters`"),
    "404": refusal("`content_type not found`, `field_name not found`, or an `api_version` this server does not offer"),
  };
  return {
    get: { ...operation, parameters, tags: ["core"], responses: { ...(operation.responses as Schema), ...NEGOTIATED, ...refusals } },
    options: { ...optionsOperation(`${String(operation.operationId)}_options`, ["core"]), security: [] },
  };
}

