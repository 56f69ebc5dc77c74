// What the DRF document's parts share: the error and metadata schemas, the refusals every
// operation may get, the page envelope, the pagination parameters, the OPTIONS operation and
// the route table. Takes the IR; gives schema fragments. Builds no path itself.
import type { DrfRoute } from "../../../runtime/descriptor.js";
import { drfRoutes } from "../../ir/drf-routes.js";
import type { IrApi, IrModel } from "../../ir/index.js";
import { modelByKey, ref, type Schema } from "./schemas.js";

export const ERROR_DETAIL: Schema = {
  type: "object",
  properties: { detail: { type: "string" } },
  required: ["detail"],
};
export const VALIDATION_ERROR: Schema = {
  anyOf: [
    { type: "object", additionalProperties: {} },
    { type: "array", items: { type: "object", additionalProperties: {} } },
  ],
};

/**
 * DRF's OPTIONS metadata (runtime/profiles/drf/metadata.ts): one entry per field, with the
 * flags every entry has, the limits and choices some have, and a related model's fields.
 */
export const METADATA_FIELD: Schema = {
  type: "object",
  properties: {
    type: { type: "string" }, required: { type: "boolean" }, read_only: { type: "boolean" }, label: { type: "string" }, help_text: { type: "string" },
    max_length: { type: "integer" }, min_length: { type: "integer" }, min_value: { type: "number" }, max_value: { type: "number" },
    // Model choices say `display`, custom-field selections DRF's own `display_name`.
    choices: {
      type: "array",
      items: { type: "object", properties: { value: {}, display: { type: "string" }, display_name: { type: "string" } }, required: ["value"], additionalProperties: false },
    },
    children: { type: "object", additionalProperties: ref("MetadataField") },
    child: ref("MetadataField"),
  },
  required: ["type", "required", "read_only"],
  additionalProperties: false,
};
export const METADATA: Schema = {
  type: "object",
  properties: {
    name: { type: "string" }, description: { type: "string" },
    renders: { type: "array", items: { type: "string" } }, parses: { type: "array", items: { type: "string" } },
    actions: {
      type: "object", description: "The fields each write method this requester may use takes (absent without write permission).",
      properties: Object.fromEntries(["POST", "PUT"].map((m) => [m, { type: "object", additionalProperties: ref("MetadataField") }])),
      additionalProperties: false,
    },
  },
  required: ["name", "description", "renders", "parses"],
  additionalProperties: false,
};

/**
 * Refusals any operation may get, each once under components/responses: versions and media
 * types are negotiated, and credentials checked, before any route is chosen. With them the
 * answer to OPTIONS, which every path gives.
 */
export const RESPONSES: Record<string, Schema> = {
  Metadata: { description: "The endpoint's metadata: its name, renderers and parsers, and the fields each write method this requester may use takes", content: { "application/json": { schema: ref("Metadata") } } },
  BadRequest: { description: "Invalid input, an unknown or invalid filter, a malformed JSON body, or an Accept version that differs from `api_version`", content: { "application/json": { schema: ref("ValidationError") } } },
  Forbidden: { description: "No, invalid or expired credentials, a read-only token for a write, or no permission", content: { "application/json": { schema: ref("Error") } } },
  NotFound: { description: "No such object (or not visible to the requester), or an `api_version` or `format` this server does not offer", content: { "application/json": { schema: ref("Error") } } },
  NotAcceptable: { description: "The Accept header asks for a media type or version this server does not offer", content: { "application/json": { schema: ref("Error") } } },
  Conflict: { description: "Other objects depend on it (a protected delete), or a related object changed meanwhile", content: { "application/json": { schema: ref("Error") } } },
  PreconditionFailed: { description: "An object has several values where this API version shows one; use a newer version", content: { "application/json": { schema: ref("Error") } } },
  TooLarge: { description: "The request body is larger than the server's limit (`BODY_LIMIT`)", content: { "application/json": { schema: ref("Error") } } },
  UnsupportedMediaType: { description: "The request body is not application/json (nor text/csv, which a list's create also takes)", content: { "application/json": { schema: ref("Error") } } },
};
export const respond = (name: keyof typeof RESPONSES) => ({ $ref: `#/components/responses/${name}` });
/** What every operation may answer besides its own outcomes. */
export const NEGOTIATED = { "400": respond("BadRequest"), "403": respond("Forbidden"), "404": respond("NotFound"), "406": respond("NotAcceptable"), "413": respond("TooLarge") };
/** …and an operation that reads a JSON body. */
export const WITH_BODY = { ...NEGOTIATED, "409": respond("Conflict"), "415": respond("UnsupportedMediaType") };

/** A model key's ids: integers (serial-id APIs, the content-type registry, serial models) or UUID strings. */
export function idSchema(api: IrApi, key: string): Schema {
  const integer = api.idType === "serial" || modelByKey(api, key).fields.some((f) => f.kind === "id" && f.integer);
  return integer ? { type: "integer" } : { type: "string", format: "uuid" };
}

export function objectSchema(props: Array<[string, Schema]>, required: string[], extra: Schema = {}): Schema {
  return { type: "object", properties: Object.fromEntries(props), required, additionalProperties: false, ...extra };
}

/** What a write body's schema says of keys that name no field: refused, or ignored as DRF ignores them. */
export function unknownKeys(api: IrApi): Schema {
  return api.settings.STRICT_WRITE_FIELDS === true
    ? { additionalProperties: false }
    : { additionalProperties: { description: "A key that names no writable field (a read-only one too) is ignored." } };
}
export const json = (schema: Schema) => ({ "application/json": { schema } });

/**
 * A GET's reply: the full form, or the brief one when `brief` is not empty. `anyOf`, not
 * `oneOf`: an empty page is a page of either form.
 */
export const fullOrBrief = (full: Schema, brief: Schema): Schema => ({ anyOf: [full, brief] });
/** What a POST that also takes a list takes and answers: one object, or an array of them (all or none). */
export const oneOrMany = (one: Schema): Schema => ({ oneOf: [one, { type: "array", items: one }] });

/** A page of a list: DRF's limit/offset envelope around items of `item`. */
export function pageOf(item: Schema): Schema {
  return objectSchema([
    ["count", { type: "integer" }],
    ["next", { type: ["string", "null"], format: "uri" }],
    ["previous", { type: ["string", "null"], format: "uri" }],
    ["results", { type: "array", items: item }],
  ], ["count", "next", "previous", "results"]);
}

/** A list's `format`: `csv` answers every selected object as a CSV file (as `Accept: text/csv`); `api`, the browsable page. */
export const formatParam = {
  name: "format", in: "query", required: false, schema: { enum: ["json", "api", "csv"] },
  description: "`csv`: every object the filters select (no page), as a CSV file in Nautobot 2.x's columns; `api`: the browsable page.",
};
/** A list as CSV: one header line, then a line per object (docs/using/csv.md). */
export const CSV_FILE = { "text/csv": { schema: { type: "string" } } };
/** A list's create from CSV: a header naming fields (`site__slug`, `cf_<key>`), then a line per object. */
export const CSV_BODY = {
  "text/csv": {
    schema: {
      type: "string",
      description: "CSV: a header of field names (a related object by id, or by `<field>__<key>`; a custom field as `cf_<key>`), then one line per object, created together, all or none.",
    },
  },
};
/** A CSV create's refusal: each problem with its line (1 the first after the header) and field. */
export const CSV_REFUSAL = {
  description: "Invalid input: for a CSV body, each problem by row and field; else as BadRequest",
  content: {
    "application/json": {
      schema: {
        anyOf: [
          { type: "array", items: { type: "object", properties: { row: { type: "integer" }, field: { type: "string" }, errors: {} }, required: ["row", "field", "errors"] } },
          ref("ValidationError"),
        ],
      },
    },
  },
};
export const limitParam = { name: "limit", in: "query", required: false, schema: { type: "integer" } };
export const offsetParam = { name: "offset", in: "query", required: false, schema: { type: "integer" } };
export const cursorParam = {
  name: "cursor", in: "query", required: false, schema: { type: "string" },
  description: "Pages by cursor instead of offset: empty for the first page, then the value in `next`. An unreadable cursor is a 404.",
};
export const errorResponse = (description: string, schema: Schema = ERROR_DETAIL) => ({ description, content: json(schema) });

/** OPTIONS on a path (its answer told once, in components.responses): DRF's metadata, the write methods' fields on list and detail paths. */
export function optionsOperation(id: string, tags: string[]): Schema {
  return {
    operationId: id, tags, summary: "Describe the endpoint",
    responses: { "200": respond("Metadata"), ...NEGOTIATED },
  };
}
/** The model a route serves. */
export const routeModel = (api: IrApi, route: DrfRoute): IrModel => modelByKey(api, route.model!);

/** The API's route table: the one generator/ir put on it, the one the runtime serves. */
export const routesOf = (api: IrApi): DrfRoute[] => api.drfRoutes ?? drfRoutes(api);

/** The reply to a password attempt refused after too many failures for the user or from the address. */
export function throttled(response: (description: string) => Schema): Schema {
  return {
    ...response("Too many failed passwords for this user or from this address: wait and retry"),
    headers: { "Retry-After": { description: "Seconds until an attempt is allowed again", schema: { type: "integer" } } },
  };
}
