// OpenAPI 3.1 emitter for the WordPress-style profile: the namespace's routes (from the
// runtime profile's own route table, so the document and the REST index never disagree),
// post and term records as the profile renders them, list envelopes, total headers and the
// `{code, message, data}` errors. Pure: IR in, document out.
import type { FieldDescriptor, WpArg } from "../../../runtime/descriptor.js";
import type { IrApi, IrModel } from "../../ir/index.js";

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str: Schema = { type: "string" };
const WALL = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$" };
const DETAIL_KEYS = ["year", "month", "day", "hour", "minutes", "seconds"];

const SHARED: Record<string, Schema> = {
  DateDetails: {
    type: "object", description: "Date parts as zero-padded strings.",
    properties: Object.fromEntries(DETAIL_KEYS.map((k) => [k, { type: "string", pattern: "^\\d+$" }])),
    required: DETAIL_KEYS, additionalProperties: false,
  },
  CostDetails: {
    type: "object",
    properties: { currency_symbol: str, currency_code: str, currency_position: { enum: ["prefix", "postfix", ""] }, values: { type: "array", items: str } },
    required: ["currency_symbol", "currency_code", "currency_position", "values"], additionalProperties: false,
  },
  Image: {
    anyOf: [
      { const: false },
      { type: "object", properties: { url: { type: "string", format: "uri" }, id: { type: "integer" }, extension: str }, required: ["url", "id", "extension"], additionalProperties: false },
    ],
  },
  TermUrls: {
    type: "object", properties: { self: { type: "string", format: "uri" }, collection: { type: "string", format: "uri" }, up: { type: "string", format: "uri" } },
    required: ["self", "collection"], additionalProperties: false,
  },
  EmbeddedTerm: {
    type: "object", description: "A term as embedded in a record.",
    properties: {
      id: { type: "integer" }, name: str, slug: str, term_group: { type: "integer" }, term_taxonomy_id: { type: "integer" }, taxonomy: str,
      description: str, parent: { type: "integer" }, count: { type: "integer" }, filter: { const: "raw" }, urls: ref("TermUrls"),
    },
    required: ["id", "name", "slug", "term_group", "term_taxonomy_id", "taxonomy", "description", "parent", "count", "filter", "urls"],
    additionalProperties: false,
  },
  Error: {
    type: "object",
    properties: {
      code: str, message: str,
      data: { type: "object", properties: { status: { type: "integer" }, params: { anyOf: [{ type: "object", additionalProperties: str }, { type: "array", items: str }] } }, required: ["status"] },
    },
    required: ["code", "message", "data"],
  },
};

function modelOf(api: IrApi, key: string): IrModel {
  return api.models.find((m) => m.key === key)!;
}

function fieldRead(api: IrApi, m: IrModel, f: FieldDescriptor): Record<string, Schema> {
  const wp = m.wordpress!;
  const clock = wp.wallClock;
  if (clock && (f.name === clock.start || f.name === clock.end)) {
    const out: Record<string, Schema> = { [f.name]: WALL, [`${f.name}_details`]: ref("DateDetails") };
    if (f.name === clock.end) for (const u of [clock.utcStart, clock.utcEnd]) Object.assign(out, { [u]: WALL, [`${u}_details`]: ref("DateDetails") });
    return out;
  }
  if (clock && f.name === clock.timezone) return { [f.name]: str, timezone_abbr: str };
  if (wp.money === f.name) return { [f.name]: str, [`${f.name}_details`]: ref("CostDetails") };
  if (wp.images?.includes(f.name)) return { [f.name]: ref("Image") };
  const d = f.description ? { description: f.description } : {};
  switch (f.kind) {
    case "fk": {
      const target = modelOf(api, f.target!);
      if (wp.embed?.includes(f.name)) return { [f.name]: { ...d, anyOf: [ref(target.name), { type: "array", maxItems: 0 }] } };
      return { [f.name]: { ...d, type: "integer" } };
    }
    case "m2m": {
      const target = modelOf(api, f.target!);
      return { [f.name]: { ...d, type: "array", items: target.wordpress?.kind === "term" ? ref("EmbeddedTerm") : ref(target.name) } };
    }
    case "choice": return { [f.name]: { ...d, enum: f.choices!.map(([v]) => v) } };
    case "scalar":
      if (f.type === "boolean") return { [f.name]: { ...d, type: "boolean" } };
      if (f.type === "float") return { [f.name]: { ...d, type: "number" } };
      if (f.type === "integer") return { [f.name]: { ...d, type: "integer" } };
      if (f.type === "datetime") return { [f.name]: { ...d, type: "string" } };
      return { [f.name]: { ...d, type: "string" } };
    default:
      return {};
  }
}

function postSchema(api: IrApi, m: IrModel): Schema {
  const wp = m.wordpress!;
  const clock = wp.wallClock;
  const props: Record<string, Schema> = {
    id: { type: "integer" }, global_id: str, global_id_lineage: { type: "array", items: str },
    author: { type: "string", description: "The author's user id, or \"\"." }, status: fieldRead(api, m, m.fields.find((f) => f.name === "status")!).status,
    date: WALL, date_utc: WALL, modified: WALL, modified_utc: WALL, url: { type: "string", format: "uri" },
  };
  if (!wp.dropEmpty) props.rest_url = { type: "string", format: "uri" };
  const skip = new Set(["id", "display", "url", "author", "status", "date", "modified", ...(clock ? [clock.utcStart, clock.utcEnd] : [])]);
  for (const f of m.fields) if (!skip.has(f.name) && !f.writeOnly) Object.assign(props, fieldRead(api, m, f));
  const always = ["id", "global_id", "global_id_lineage", "status", "date", "date_utc", "modified", "modified_utc", "url"];
  const required = wp.dropEmpty
    ? [...always, ...m.fields.filter((f) => f.kind === "scalar" && f.type === "boolean").map((f) => f.name)]
    : Object.keys(props);
  return { type: "object", description: m.description, properties: props, required, additionalProperties: false };
}

function termSchema(m: IrModel): Schema {
  const hasParent = m.fields.some((f) => f.name === "parent");
  const props: Record<string, Schema> = {
    id: { type: "integer" }, count: { type: "integer" }, description: str, name: str, slug: str, taxonomy: { const: m.wordpress!.taxonomy ?? m.wordpress!.listKey },
    ...(hasParent ? { parent: { type: "integer" } } : {}), meta: { type: "array", maxItems: 0 }, url: { type: "string", format: "uri" }, urls: ref("TermUrls"),
  };
  return { type: "object", description: m.description, properties: props, required: Object.keys(props), additionalProperties: false };
}

function listSchema(m: IrModel): Schema {
  const wp = m.wordpress!;
  const uri = { type: "string", format: "uri" };
  return {
    type: "object",
    properties: { [wp.listKey]: { type: "array", items: ref(m.name) }, rest_url: uri, next_rest_url: uri, previous_rest_url: uri, total: { type: "integer" }, total_pages: { type: "integer" } },
    required: [wp.listKey, "rest_url", "total", "total_pages"],
    additionalProperties: false,
  };
}

/** Any-case spelling of a word, for patterns (JSON Schema regexes take no flags). */
const anyCase = (word: string) => [...word].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join("");

/**
 * Values as the profile reads them (params.ts, writes.ts), which is looser than the argument's
 * declared type: `rest_sanitize_boolean`'s words in any case (or nothing, which is false),
 * numbers as numeric strings, text given as a number.
 */
const READ_AS: Record<string, Schema> = {
  boolean: {
    anyOf: [
      { type: "boolean" }, { enum: [0, 1] },
      { type: "string", pattern: `^\\s*(${["1", "0", "true", "false", "yes", "no", "on", "off"].map(anyCase).join("|")})?\\s*$` },
    ],
  },
  number: { anyOf: [{ type: "number" }, { type: "string", pattern: "^\\s*([-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?)?\\s*$" }] },
  string: { type: ["string", "number"] },
};

/** An argument's schema; `slugs` when its list also names terms by slug (the archive reads either). */
function argSchema(a: WpArg, slugs = false): Schema {
  const s: Schema = a.type && READ_AS[a.type] && !a.enum ? { ...READ_AS[a.type] } : a.type ? { type: a.type } : {};
  if (a.items) s.items = slugs ? { type: ["integer", "string"] } : a.items;
  if (a.enum) s.enum = a.enum;
  if (a.default !== undefined) s.default = a.default;
  return s;
}

/** Whether a list parameter of a model's archive takes term slugs as well as ids. */
function takesSlugs(api: IrApi, m: IrModel, name: string): boolean {
  if (m.wordpress!.kind === "term") return name === "include" || name === "exclude";
  const f = m.fields.find((x) => x.name === name);
  return !!f && (f.kind === "m2m" || f.kind === "fk") && api.models.find((t) => t.key === f.target)?.wordpress?.kind === "term";
}

const TOTALS = Object.fromEntries(["X-TEC-Total", "X-TEC-TotalPages", "X-WP-Total", "X-WP-TotalPages"].map((h) => [h, { schema: { type: "integer" } }]));
const error = (description: string) => ({ description, content: { "application/json": { schema: ref("Error") } } });
const json = (description: string, schema: Schema, headers?: Schema) => ({ description, ...(headers ? { headers } : {}), content: { "application/json": { schema } } });

/** A request body's schema, once under components: a reference to `name`, or to `name` and its method where that differs. */
function bodySchema(schemas: Record<string, Schema>, name: string, method: string, schema: Schema): Schema {
  const text = JSON.stringify(schema);
  const same = Object.keys(schemas).find((k) => k.startsWith(name) && JSON.stringify(schemas[k]) === text);
  if (same) return ref(same);
  let at = schemas[name] ? `${name}${method[0]}${method.slice(1).toLowerCase()}` : name;
  for (let n = 2; schemas[at]; n++) at = `${name}${n}`;
  schemas[at] = schema;
  return ref(at);
}

export function emitWordpressOpenApi(api: IrApi, version: string): Record<string, unknown> {
  const ns = `/${api.basePath.replace(/^\/|\/$/g, "")}`;
  const schemas: Record<string, Schema> = { ...SHARED };
  for (const m of api.models.filter((x) => x.wordpress)) {
    schemas[m.name] = m.wordpress!.kind === "post" ? postSchema(api, m) : termSchema(m);
    schemas[`${m.name}List`] = listSchema(m);
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of api.routes ?? []) {
    const path = r.regex.slice(ns.length).replace(/\(\?P<(\w+)>[^)]*\)/g, "{$1}") || "/";
    const m = api.models.find((x) => x.wordpress && path.split("/")[1] === x.wordpress.listKey);
    const ops: Record<string, unknown> = {};
    for (const e of r.endpoints) {
      for (const method of e.methods) {
        const inPath = (n: string) => path.includes(`{${n}}`);
        const body = method !== "GET" && method !== "DELETE";
        const params = Object.entries(e.args).filter(([n]) => !body || inPath(n)).map(([name, a]) => ({
          name, in: inPath(name) ? "path" : "query", required: inPath(name) || a.required,
          ...(a.description ? { description: a.description } : {}),
          schema: argSchema(a, !!m && takesSlugs(api, m, name)), ...(a.type === "array" ? { style: "form", explode: false } : {}),
        }));
        const bodyArgs = Object.entries(e.args).filter(([n]) => !inPath(n));
        const op: Record<string, unknown> = { parameters: params };
        if (body) {
          // Written once under components (JSON and form bodies take the same fields, PUT and PATCH alike).
          const schema = bodySchema(schemas, `${m?.name ?? "Route"}${path.includes("{") ? "Update" : "Create"}`, method, {
            type: "object", properties: Object.fromEntries(bodyArgs.map(([n, a]) => [n, argSchema(a)])), required: bodyArgs.filter(([, a]) => a.required).map(([n]) => n),
          });
          op.requestBody = { content: { "application/json": { schema }, "application/x-www-form-urlencoded": { schema } } };
        }
        if (!m) {
          // A browser (an Accept naming text/html) gets Swagger UI reading the document instead.
          const index = path === "/doc"
            ? { description: "This OpenAPI document, or for a browser Swagger UI showing it.", content: { "application/json": { schema: { type: "object" } }, "text/html": { schema: str } } }
            : json("The namespace's routes.", { type: "object" });
          op.responses = { 200: index, 404: error("Unknown namespace.") };
        } else if (!path.includes("{")) {
          op.responses = method === "GET"
            ? { 200: json("A page of records.", ref(`${m.name}List`), TOTALS), 400: error("An invalid parameter."), 404: error("A page past the end.") }
            : { 201: json("The created record.", ref(m.name)), 400: error("Invalid or missing parameters."), 401: error("Not logged in."), 403: error("Not allowed.") };
        } else {
          op.responses = {
            200: json(method === "DELETE" ? "The record (trashed, or as it was before a permanent delete)." : "The record.", ref(m.name)),
            400: error("An invalid parameter or unknown slug."), 401: error("Not logged in."), 403: error("Not allowed or not accessible."),
            404: error("No such record."), ...(method === "DELETE" ? { 410: error("Already in the trash.") } : {}),
          };
        }
        // Basic credentials are checked on every route, so any of them may refuse a throttled password.
        op.responses = { ...(op.responses as Record<string, unknown>), 429: { $ref: "#/components/responses/Throttled" } };
        ops[method.toLowerCase()] = op;
      }
    }
    paths[path] = ops;
  }
  return {
    openapi: "3.1.0",
    info: { title: api.title, version, description: api.description },
    servers: [{ url: `${api.basePath}` }],
    paths,
    components: {
      schemas,
      responses: {
        Throttled: { ...error("Too many failed passwords for this user or from this address: wait and retry."), headers: { "Retry-After": { description: "Seconds until an attempt is allowed again", schema: { type: "integer" } } } },
      },
      securitySchemes: {
        applicationPassword: { type: "http", scheme: "basic", description: "User name and an application password." },
        tokenAuth: { type: "apiKey", in: "header", name: "Authorization", description: "`Token <key>` of the identity API." },
      },
    },
  };
}
