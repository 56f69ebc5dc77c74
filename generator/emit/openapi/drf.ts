// OpenAPI 3.1 emitter for the DRF-style profile: one document per API version with the
// list/detail/bulk paths of every model, the pagination envelope, the brief form, the
// query filters, token security and the DRF error shapes. Pure: IR in, document out.
// The document describes every exchange the server accepts, as a validating proxy must see
// them: a GET answers in the full or the brief form (`anyOf`), a list's POST takes one object
// or an array and answers in kind (`oneOf`). Typed clients want one exchange per operation:
// runtime/profiles/drf/documents.ts derives those documents from this one, by these shapes.
import { FILTER_FALSE, FILTER_TRUE, inVersion, listServedBy, requiredIn, shownSingle, type DrfRoute, type DrfView, type FieldDescriptor } from "../../../runtime/descriptor.js";
import { drfRoutes } from "../../ir/drf-routes.js";
import type { IrApi, IrModel } from "../../ir/index.js";
import { byCodePoint, operationId } from "../../ir/names.js";
import { kindOf } from "../../kinds/index.js";
import { SharedParameters } from "./parameters.js";
import { componentName, describe, modelByKey, ref, type Schema } from "./schemas.js";

const ERROR_DETAIL: Schema = {
  type: "object",
  properties: { detail: { type: "string" } },
  required: ["detail"],
};
const VALIDATION_ERROR: Schema = {
  anyOf: [
    { type: "object", additionalProperties: {} },
    { type: "array", items: { type: "object", additionalProperties: {} } },
  ],
};

/**
 * DRF's OPTIONS metadata (runtime/profiles/drf/metadata.ts): one entry per field, with the
 * flags every entry has, the limits and choices some have, and a related model's fields.
 */
const METADATA_FIELD: Schema = {
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
const METADATA: Schema = {
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
 * types are negotiated, and credentials checked, before any route is chosen.
 */
const RESPONSES: Record<string, Schema> = {
  BadRequest: { description: "Invalid input, an unknown or invalid filter, a malformed JSON body, or an Accept version that differs from `api_version`", content: { "application/json": { schema: ref("ValidationError") } } },
  Forbidden: { description: "No, invalid or expired credentials, a read-only token for a write, or no permission", content: { "application/json": { schema: ref("Error") } } },
  NotFound: { description: "No such object (or not visible to the requester), or an `api_version` or `format` this server does not offer", content: { "application/json": { schema: ref("Error") } } },
  NotAcceptable: { description: "The Accept header asks for a media type or version this server does not offer", content: { "application/json": { schema: ref("Error") } } },
  Conflict: { description: "Other objects depend on it (a protected delete), or a related object changed meanwhile", content: { "application/json": { schema: ref("Error") } } },
  PreconditionFailed: { description: "An object has several values where this API version shows one; use a newer version", content: { "application/json": { schema: ref("Error") } } },
  TooLarge: { description: "The request body is larger than the server's limit (`BODY_LIMIT`)", content: { "application/json": { schema: ref("Error") } } },
  UnsupportedMediaType: { description: "The request body is not application/json", content: { "application/json": { schema: ref("Error") } } },
};
const respond = (name: keyof typeof RESPONSES) => ({ $ref: `#/components/responses/${name}` });
/** What every operation may answer besides its own outcomes. */
const NEGOTIATED = { "400": respond("BadRequest"), "403": respond("Forbidden"), "404": respond("NotFound"), "406": respond("NotAcceptable"), "413": respond("TooLarge") };
/** …and an operation that reads a JSON body. */
const WITH_BODY = { ...NEGOTIATED, "409": respond("Conflict"), "415": respond("UnsupportedMediaType") };

/** A model key's ids: integers (serial-id APIs, the content-type registry, serial models) or UUID strings. */
function idSchema(api: IrApi, key: string): Schema {
  const integer = api.idType === "serial" || modelByKey(api, key).fields.some((f) => f.kind === "id" && f.integer);
  return integer ? { type: "integer" } : { type: "string", format: "uuid" };
}

function readSchema(api: IrApi, m: IrModel, f: FieldDescriptor, nested: boolean, version: string): Schema {
  return kindOf(f).readSchema(f, {
    api, model: m, version, nested, idOf: (key) => idSchema(api, key),
    nestedRef: (key) => ref(componentName.nested(modelByKey(api, key).name)),
    shapeOf(key, names) {
      const target = modelByKey(api, key);
      const fields = readable(target, version, api.versions.supported, names);
      return objectSchema(fields.map((x) => [x.name, readSchema(api, target, x, true, version)]), fields.map((x) => x.name));
    },
  });
}

/** The fields of the full shape in `version`, or of the shape `names` lists (nested and brief forms, which no version changes). */
function readable(m: IrModel, version: string, versions: string[], names?: string[]): FieldDescriptor[] {
  const fields = m.fields.filter((f) => !f.writeOnly);
  return names ? names.map((n) => fields.find((f) => f.name === n)).filter((f): f is FieldDescriptor => !!f)
    : fields.filter((f) => !f.nestedOnly && inVersion(f, version, versions));
}

function writable(m: IrModel, version: string, versions: string[]): FieldDescriptor[] {
  return m.fields.filter((f) => !f.readOnly && inVersion(f, version, versions) && kindOf(f).writeSchema);
}

function objectSchema(props: Array<[string, Schema]>, required: string[], extra: Schema = {}): Schema {
  return { type: "object", properties: Object.fromEntries(props), required, additionalProperties: false, ...extra };
}

/** What a write body's schema says of keys that name no field: refused, or ignored as DRF ignores them. */
function unknownKeys(api: IrApi): Schema {
  return api.settings.STRICT_WRITE_FIELDS === true
    ? { additionalProperties: false }
    : { additionalProperties: { description: "A key that names no field is ignored." } };
}

function modelComponents(api: IrApi, m: IrModel, version: string): Record<string, Schema> {
  const versions = api.versions.supported;
  const full = readable(m, version, versions);
  const nested = readable(m, version, versions, m.nested);
  const brief = readable(m, version, versions, m.brief);
  const writes = writable(m, version, versions);
  const required = writes.filter((f) => requiredIn(f, version, versions)).map((f) => f.name);
  // The server ignores read-only keys, and unknown ones unless STRICT_WRITE_FIELDS: described as
  // such. The read-only ones carry no `readOnly`, which validators read as "must not be sent".
  const writeProperties = Object.fromEntries(m.fields.filter((f) => inVersion(f, version, versions)).flatMap((f): Array<[string, Schema]> =>
    writes.includes(f) ? [[f.name, describe(kindOf(f).writeSchema!(f, { idOf: (key) => idSchema(api, key) }), f)]]
      : f.readOnly ? [[f.name, { description: "Read-only: ignored when sent." }]] : []));
  const out: Record<string, Schema> = {
    // An excludable field is absent from replies whose `exclude` names it, an opt-in one from
    // GETs whose `include` does not.
    [componentName.full(m.name)]: objectSchema(full.map((f) => [f.name, describe(readSchema(api, m, f, false, version), f)]),
      full.filter((f) => !(f.kind === "computed" && f.excludable) && !f.optIn).map((f) => f.name), { description: m.description }),
    [componentName.nested(m.name)]: objectSchema(nested.map((f) => [f.name, readSchema(api, m, f, true, version)]), nested.map((f) => f.name)),
    // A full write is a partial one with its required fields: written once, in the partial one.
    // The required ones first, as a schema with both checks them first (write errors keep their order).
    [componentName.writable(m.name)]: required.length ? { allOf: [{ required }, ref(componentName.patched(m.name))] } : ref(componentName.patched(m.name)),
    [componentName.patched(m.name)]: {
      type: "object",
      properties: writeProperties,
      ...unknownKeys(api),
    },
    [componentName.paginated(m.name)]: pageOf(ref(componentName.full(m.name))),
    [componentName.paginated(componentName.brief(m.name))]: pageOf(ref(componentName.brief(m.name))),
  };
  out[componentName.brief(m.name)] = objectSchema(brief.map((f) => [f.name, readSchema(api, m, f, true, version)]), brief.map((f) => f.name));
  return out;
}

/** The type of one value of a filter, as strict as the runtime's own check of it. */
function filterValueSchema(api: IrApi, m: IrModel, flt: IrModel["filters"][number]): Schema {
  const field = m.fields.find((f) => f.name === flt.field);
  switch (flt.kind) {
    case "number": return { type: (field?.kind === "scalar" && field.type === "integer") || (field?.kind === "id" && field.integer) ? "integer" : "number" };
    case "uuid": return { type: "string", format: "uuid" };
    // The link's target (at the end of `via`, for a filter through related rows) decides the ids' type.
    case "fk": return flt.idOnly ? idSchema(api, linkTarget(api, m, flt)) : { type: "string" };
    case "method": return flt.choices ? { enum: flt.choices } : flt.takes === "uuid" ? { type: "string", format: "uuid" } : flt.takes === "number" ? { type: "number" } : { type: "string" };
    case "date": return { type: "string", format: "date" };
    case "datetime": return { type: "string", format: "date-time" };
    case "contentTypes": return { enum: field?.kind === "contentTypes" ? field.models : [] };
    // "null" matches objects without a value.
    case "choice": return { enum: [...(field?.kind === "choice" ? field.choices : []).map(([v]) => String(v)), "null"] };
    case "network":
      if (flt.network === "family") return { type: "integer", enum: [4, 6] };
      if (flt.network?.startsWith("mask_length")) return { type: "integer", minimum: 0, maximum: 128 };
      return { type: "string" };
    default: return { type: "string" };
  }
}

/** The model a link filter names objects of: its field's target, reached through `via`. */
function linkTarget(api: IrApi, m: IrModel, flt: IrModel["filters"][number]): string {
  let model: IrModel = m;
  for (const name of [...(flt.via ?? []), flt.field!]) {
    const f = model.fields.find((x) => x.name === name);
    if (!f || !("target" in f)) throw new Error(`${m.key}: filter ${flt.param} follows ${name}, which links nowhere`);
    if (name === flt.field) return f.target;
    model = modelByKey(api, f.target);
  }
  throw new Error(`${m.key}: filter ${flt.param} has no field`);
}

function filterParameters(api: IrApi, m: IrModel, only?: string[]): Schema[] {
  return m.filters.filter((flt) => !only || only.includes(flt.param)).map((flt) => {
    // Booleans as the server reads them (the last value given), `True` as Python clients send it.
    const schema: Schema = flt.kind === "boolean" || flt.kind === "hasRelated" || flt.kind === "present" || (flt.kind === "method" && flt.takes === "boolean") ? { type: "string", enum: [...FILTER_TRUE, ...FILTER_FALSE] }
      : flt.kind === "q" ? { type: "string" }
      // One number (the last given), truncated to a whole one.
      : flt.kind === "contains" ? { type: "number" }
      : { type: "array", items: filterValueSchema(api, m, flt) };
    const p: Schema = { name: flt.param, in: "query", required: false, schema };
    if (schema.type === "array") Object.assign(p, { style: "form", explode: true });
    return p;
  });
}

const json = (schema: Schema) => ({ "application/json": { schema } });

/**
 * A GET's reply: the full form, or the brief one when `brief` is not empty. `anyOf`, not
 * `oneOf`: an empty page is a page of either form.
 */
const fullOrBrief = (full: Schema, brief: Schema): Schema => ({ anyOf: [full, brief] });
/** What a POST that also takes a list takes and answers: one object, or an array of them (all or none). */
const oneOrMany = (one: Schema): Schema => ({ oneOf: [one, { type: "array", items: one }] });

/** A page of a list: DRF's limit/offset envelope around items of `item`. */
function pageOf(item: Schema): Schema {
  return objectSchema([
    ["count", { type: "integer" }],
    ["next", { type: ["string", "null"], format: "uri" }],
    ["previous", { type: ["string", "null"], format: "uri" }],
    ["results", { type: "array", items: item }],
  ], ["count", "next", "previous", "results"]);
}

const limitParam = { name: "limit", in: "query", required: false, schema: { type: "integer" } };
const offsetParam = { name: "offset", in: "query", required: false, schema: { type: "integer" } };
const cursorParam = {
  name: "cursor", in: "query", required: false, schema: { type: "string" },
  description: "Pages by cursor instead of offset: empty for the first page, then the value in `next`. An unreadable cursor is a 404.",
};
const errorResponse = (description: string, schema: Schema = ERROR_DETAIL) => ({ description, content: json(schema) });

/** OPTIONS on a path: DRF's metadata, the write methods' fields on list and detail paths. */
function optionsOperation(id: string, tags: string[]): Schema {
  return {
    operationId: id, tags, summary: "Describe the endpoint: name, renderers, parsers and the fields each allowed write takes",
    responses: { "200": { description: "The endpoint's metadata", content: json(ref("Metadata")) }, ...NEGOTIATED },
  };
}

/** What the paths of a model share: its tag, the refusals its answers may get, its query and id parameters. */
function modelContext(api: IrApi, m: IrModel, version: string) {
  // A field that older versions show as one object cannot show several: those replies are 412.
  const single = m.fields.some((f) => f.kind === "reverse" && shownSingle(f, version, api.versions.supported));
  const common = { ...NEGOTIATED, ...(single ? { "412": respond("PreconditionFailed") } : {}) };
  const excludable = m.fields.filter((f) => f.kind === "computed" && f.excludable).map((f) => f.name);
  const optIn = m.fields.filter((f) => f.optIn).map((f) => f.name);
  // A bulk element names its object by id; PUT validates the rest as a full write, PATCH as a partial one.
  const byId = { type: "object", properties: { id: idSchema(api, m.key) }, required: ["id"] };
  // A model with an image field also takes one object as multipart/form-data, the image a file part.
  const uploads = m.fields.some((f) => f.kind === "imageFile");
  return {
    m, tag: [m.app], full: ref(componentName.full(m.name)), common, withBody: { ...common, ...WITH_BODY }, byId,
    brief: { name: "brief", in: "query", required: false, schema: { type: "string" }, description: "Any non-empty value selects the brief form; without it the reply is the full form." },
    exclude: excludable.length
      ? [{ name: "exclude", in: "query", required: false, schema: { type: "string" }, description: `Fields to leave out, comma-separated: ${excludable.join(", ")}.` }]
      : [],
    include: optIn.length
      ? [{ name: "include", in: "query", required: false, schema: { type: "string" }, description: `Opt-in fields to show, comma-separated: ${optIn.join(", ")}.` }]
      : [],
    idParam: { name: "id", in: "path", required: true, schema: idSchema(api, m.key) },
    bulkItem: (component: string) => ({ allOf: [ref(component), byId] }),
    orForm: (content: Record<string, unknown>, one: Schema) => (uploads ? { ...content, "multipart/form-data": { schema: one } } : content),
  };
}
type ModelContext = ReturnType<typeof modelContext>;

/** The model a route serves. */
const routeModel = (api: IrApi, route: DrfRoute): IrModel => modelByKey(api, route.model!);

/** A list's GET: a page of objects, or (in the versions an action serves the list) that action's answer. */
function listGet(api: IrApi, c: ModelContext, version: string): Schema {
  const { m, tag } = c;
  const serving = listServedBy(m, version, api.versions.supported);
  if (serving) {
    return {
      operationId: operationId(m.app, m.route, "list"), tags: tag, summary: serving.description,
      responses: { [String(serving.status ?? 200)]: { description: serving.description, content: json(serving.response) }, ...c.common },
    };
  }
  // `?export=<name>`: the list as the file an export template of the model renders.
  const exportParam = api.exportTemplates
    ? [{ name: "export", in: "query", required: false, schema: { type: "string" }, description: "An export template's name: the answer is the file it renders over every object selected." }]
    : [];
  const exported = api.exportTemplates ? { "*/*": { schema: { type: "string" } } } : {};
  return {
    operationId: operationId(m.app, m.route, "list"), tags: tag, summary: `List ${m.verboseName} objects`,
    parameters: [limitParam, offsetParam, cursorParam, c.brief, ...c.exclude, ...c.include, ...exportParam, ...filterParameters(api, m)],
    responses: {
      "200": {
        description: "A page of objects, in the full form or the brief one",
        content: { ...json(fullOrBrief(ref(componentName.paginated(m.name)), ref(componentName.paginated(componentName.brief(m.name))))), ...exported },
      },
      ...c.common,
    },
  };
}

/** `<app>/<model>/`: the list, its creates (one or several), and its bulk updates and deletes. */
function listPath(api: IrApi, route: DrfRoute, version: string): Schema {
  const c = modelContext(api, routeModel(api, route), version);
  const { m, tag } = c;
  const has = (method: string) => route.methods.includes(method);
  const list: Schema = { options: optionsOperation(operationId(m.app, m.route, "list_options"), tag) };
  if (has("GET")) list.get = listGet(api, c, version);
  if (has("POST")) {
    list.post = {
      operationId: operationId(m.app, m.route, "create"), tags: tag,
      summary: `Create a ${m.verboseName}, or several from a JSON array (all or none)`,
      requestBody: { required: true, content: c.orForm(json(oneOrMany(ref(componentName.writable(m.name)))), ref(componentName.writable(m.name))) },
      responses: { "201": { description: "Created: the object, or the objects in the order sent", content: json(oneOrMany(c.full)) }, ...c.withBody },
    };
    if (m.key === api.auth?.tokens) provisionsTokens(list.post as Schema);
  }
  for (const method of ["put", "patch"] as const) {
    if (!has(method.toUpperCase())) continue;
    list[method] = {
      operationId: operationId(m.app, m.route, method === "put" ? "bulk_update" : "bulk_partial_update"), tags: tag,
      summary: `Update several ${m.verboseName} objects (all or none)`,
      requestBody: { required: true, content: json({ type: "array", items: c.bulkItem(method === "put" ? componentName.writable(m.name) : componentName.patched(m.name)) }) },
      responses: { "200": { description: "Updated objects", content: json({ type: "array", items: c.full }) }, ...c.withBody },
    };
  }
  if (has("DELETE")) {
    list.delete = {
      operationId: operationId(m.app, m.route, "bulk_destroy"), tags: tag, summary: `Delete several ${m.verboseName} objects (all or none)`,
      requestBody: { required: true, content: json({ type: "array", items: c.byId }) },
      responses: { "204": { description: "Deleted" }, ...WITH_BODY },
    };
  }
  return list;
}

/** `<app>/<model>/{id}/`: one object, read, replaced, changed or deleted. */
function detailPath(api: IrApi, route: DrfRoute, version: string): Schema {
  const c = modelContext(api, routeModel(api, route), version);
  const { m, tag } = c;
  const has = (method: string) => route.methods.includes(method);
  const detail: Schema = { parameters: [c.idParam], options: optionsOperation(operationId(m.app, m.route, "options"), tag) };
  if (has("PUT")) {
    detail.put = {
      operationId: operationId(m.app, m.route, "update"), tags: tag, summary: `Replace a ${m.verboseName}`,
      requestBody: { required: true, content: c.orForm(json(ref(componentName.writable(m.name))), ref(componentName.writable(m.name))) },
      responses: { "200": { description: "Updated", content: json(c.full) }, ...c.withBody },
    };
  }
  if (has("PATCH")) {
    detail.patch = {
      operationId: operationId(m.app, m.route, "partial_update"), tags: tag, summary: `Change some fields of a ${m.verboseName}`,
      requestBody: { required: true, content: c.orForm(json(ref(componentName.patched(m.name))), ref(componentName.patched(m.name))) },
      responses: { "200": { description: "Updated", content: json(c.full) }, ...c.withBody },
    };
  }
  if (has("DELETE")) {
    detail.delete = {
      operationId: operationId(m.app, m.route, "destroy"), tags: tag, summary: `Delete a ${m.verboseName}`,
      responses: { "204": { description: "Deleted" }, ...NEGOTIATED, "409": respond("Conflict") },
    };
  }
  if (has("GET")) {
    detail.get = {
      operationId: operationId(m.app, m.route, "retrieve"), tags: tag, summary: `Get a ${m.verboseName}`,
      parameters: [c.brief, ...c.exclude, ...c.include],
      responses: { "200": { description: "The object, in the full form or the brief one", content: json(fullOrBrief(c.full, ref(componentName.brief(m.name)))) }, ...c.common },
    };
  }
  return detail;
}

/** `<app>/<listing>/`: a model's objects whose column is set, with the filters the listing takes. */
function listingPath(api: IrApi, route: DrfRoute, version: string): Schema {
  const c = modelContext(api, routeModel(api, route), version);
  const { m, tag } = c;
  const l = m.listings!.find((x) => route.path === `${m.app}/${x.route}/`)!;
  return {
    get: {
      operationId: operationId(m.app, l.route, "list"), tags: tag, summary: `List ${m.verboseName} objects whose ${l.column} is set`,
      parameters: [limitParam, offsetParam, ...filterParameters(api, m, l.filters)],
      responses: { "200": { description: "A page of objects", content: json(ref(componentName.paginated(m.name))) }, ...c.common },
    },
    options: optionsOperation(operationId(m.app, l.route, "list_options"), tag),
  };
}

type Action = NonNullable<IrModel["actions"]>[number];

/** An action's GET: its answer (a page of it when paginated), with the query parameters it reads. */
function actionGet(a: Action, c: ModelContext, id: string): Schema {
  return {
    operationId: id, tags: c.tag, summary: a.description,
    parameters: [
      ...(a.paginated ? [limitParam, offsetParam] : []),
      ...Object.entries(a.parameters ?? {}).map(([name, p]) => ({ name, in: "query", required: p.required ?? false, description: p.description, schema: { type: "string" } })),
    ],
    responses: { [String(a.status ?? 200)]: { description: a.description, content: json(a.paginated ? pageOf(a.response) : a.response) }, ...c.common },
  };
}

/** An action's path: on the app, at a path of its own, or below an object; a POST action, or a GET one that may also create. */
function actionPath(api: IrApi, route: DrfRoute, version: string): Schema {
  const c = modelContext(api, routeModel(api, route), version);
  const { m, tag } = c;
  const a = m.actions!.find((x) => x.name === route.action)!;
  const id = (verb: string) => operationId(m.app, a.onApp ? a.name : m.route, a.onApp ? verb : verb === "list" ? a.name : `${a.name}_${verb}`);
  const parameters = route.pathAction
    ? route.params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }))
    : route.params.length ? [c.idParam] : [];
  const item: Schema = parameters.length ? { parameters } : {};
  if (route.methods.includes("GET")) item.get = actionGet(a, c, id("list"));
  if (route.methods.includes("POST")) {
    item.post = a.method === "POST" ? {
      operationId: id("create"), tags: tag, summary: a.description,
      requestBody: { required: true, content: { ...json(a.request ?? {}), ...(a.multipart ? { "multipart/form-data": { schema: a.multipart } } : {}) } },
      responses: { [String(a.status ?? 200)]: { description: a.description, content: json(a.response) }, ...c.withBody },
    } : createsOperation(api, m, a.name, a.creates!, c.withBody);
  }
  item.options = optionsOperation(id(a.onApp ? "list_options" : "options"), tag);
  return item;
}

/** `<app>/<model>/{id}/notes/`: the notes of an object, listed, and a new one attached. */
function notesPath(api: IrApi, route: DrfRoute, version: string): Schema {
  const c = modelContext(api, routeModel(api, route), version);
  const { m, tag } = c;
  const noteModel = modelByKey(api, api.noteModel!);
  return {
    parameters: [c.idParam],
    get: {
      operationId: operationId(m.app, m.route, "notes_list"), tags: tag, summary: `List the notes of a ${m.verboseName}`,
      parameters: [limitParam, offsetParam],
      responses: { "200": { description: "A page of notes", content: json(ref(componentName.paginated(noteModel.name))) }, ...c.common },
    },
    post: {
      operationId: operationId(m.app, m.route, "notes_create"), tags: tag, summary: `Attach a note to a ${m.verboseName}`,
      requestBody: { required: true, content: json({ type: "object", properties: { note: { type: "string" } }, required: ["note"], ...unknownKeys(api) }) },
      responses: { "201": { description: "Created", content: json(ref(componentName.full(noteModel.name))) }, ...c.withBody },
    },
    options: optionsOperation(operationId(m.app, m.route, "notes_options"), tag),
  };
}

/** A POST to an action that creates objects of another model: one or a list in, in kind out. */
function createsOperation(api: IrApi, m: IrModel, name: string, creates: { model: string; request: Schema }, withBody: Schema): Schema {
  const made = api.models.find((x) => x.key === creates.model)!;
  const full = ref(componentName.full(made.name));
  return {
    operationId: operationId(m.app, m.route, `${name}_create`), tags: [m.app],
    summary: `Create a ${made.verboseName} in the free space of a ${m.verboseName}, or several from a JSON array (all or none)`,
    requestBody: { required: true, content: json(oneOrMany(creates.request)) },
    responses: {
      "201": { description: "Created: the object, or the objects in the order sent", content: json(oneOrMany(full)) },
      "204": { description: "Not enough free space for what was asked: nothing was created" },
      ...withBody,
    },
  };
}

/** The reply to a password attempt refused after too many failures for the user or from the address. */
function throttled(response: (description: string) => Schema): Schema {
  return {
    ...response("Too many failed passwords for this user or from this address: wait and retry"),
    headers: { "Retry-After": { description: "Seconds until an attempt is allowed again", schema: { type: "integer" } } },
  };
}


/** The tokens' list POST: with HTTP Basic credentials and no token, it provisions a token (throttled as passwords are). */
function provisionsTokens(post: Schema): Schema {
  post.description = "With HTTP Basic credentials and no token, creates a token for that user (write-enabled, no expiry).";
  post.security = [{ tokenAuth: [] }, { basicAuth: [] }];
  post.responses = { ...(post.responses as Schema), "429": throttled(errorResponse) };
  return post;
}

const html = { "text/html": { schema: { type: "string" } } };
const signedRedirect = { description: "Logged in (or out); redirect to `next` or the API root", headers: { Location: { schema: { type: "string" } } } };

/** `login/`, the browsable view's: a session token in an HttpOnly cookie, writing only with its CSRF token. */
function loginPath(): Schema {
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
function logoutPath(): Schema {
  return {
    post: {
      operationId: "logout", summary: "Log a browser out: deletes its session token and cookie", security: [],
      responses: { "302": signedRedirect, ...NEGOTIATED },
    },
  };
}

/**
 * `graphql/`: a query POSTed as JSON or as `application/graphql` text, and GraphiQL for a
 * browser's GET (runtime/profiles/drf/views/graphql.ts). Its OPTIONS is a 405, as any other
 * method: it answers POST alone, and GET only in HTML.
 */
function graphqlPath(): Schema {
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
      operationId: "graphql", summary: "Run a GraphQL query: each model's rows are those the requester may view",
      requestBody: { required: true, content: { ...json(query), "application/graphql": { schema: { type: "string", description: "The query itself" } } } },
      responses: {
        "200": { description: "The query ran: its data, and the errors of the fields that failed", content: json({ ...answer, required: ["data"] }) },
        "400": { description: "The query was refused before it ran (unreadable, invalid, too deep or too large): its errors", content: json({ ...answer, required: ["errors"] }) },
        "403": respond("Forbidden"), "404": respond("NotFound"), "406": respond("NotAcceptable"), "413": respond("TooLarge"),
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
function settingsPath(api: IrApi, route: DrfRoute): Schema {
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

function rootPath(api: IrApi): Schema {
  return getOnly({ operationId: "api_root", summary: "The API root: a link to each application", security: [], responses: links([...api.apps, ...api.rootLinks].sort(byCodePoint)) });
}

/** The views an app's root links to: the routes one segment below it (as the runtime lists them). */
const APP_LISTED = new Set<DrfView>(["list", "listing", "action", "settings"]);

function appRootPath(api: IrApi, route: DrfRoute): Schema {
  const app = route.app!;
  const names = routesOf(api).flatMap((r) => {
    const [first, name, end, ...rest] = r.path.split("/");
    return first === app && end === "" && !rest.length && !r.params.length && APP_LISTED.has(r.view) ? [name] : [];
  }).sort(byCodePoint);
  return getOnly({ operationId: `${app}_root`, summary: `The ${app} application: a link to each model`, tags: [app], security: [], responses: links(names) }, [app]);
}

function statusPath(api: IrApi): Schema {
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
function docsPath(): Schema {
  return getOnly({
    operationId: "docs", summary: "Swagger UI for this version's document; with `?format=openapi`, the document itself (as pynautobot's `openapi()` reads it)", security: [],
    parameters: [{ name: "format", in: "query", required: false, schema: { enum: ["openapi", "json", "api"] }, description: "`openapi` answers with the OpenAPI document of the version asked (`api_version` or the Accept header)." }, FORM],
    responses: { "200": { description: "The page, or the document", content: { "text/html": { schema: { type: "string" } }, "application/json": { schema: DOCUMENT } } } },
  });
}

function redocPath(): Schema {
  return getOnly({
    operationId: "redoc", summary: "ReDoc for this version's document", security: [],
    responses: { "200": { description: "The page", content: { "text/html": { schema: { type: "string" } } } } },
  });
}

/** `swagger.json`, `swagger.yaml` and `swagger/` (either, negotiated): the document of the version asked. */
function swaggerPath(_api: IrApi, route: DrfRoute): Schema {
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
function filtersetPath(_api: IrApi, route: DrfRoute): Schema {
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

/** The path item each kind of view is documented by. */
const PATHS: Record<Exclude<DrfView, "redirect">, (api: IrApi, route: DrfRoute, version: string) => Schema> = {
  list: listPath, detail: detailPath, listing: listingPath, action: actionPath, notes: notesPath,
  settings: settingsPath, status: statusPath, root: rootPath, "app-root": appRootPath,
  docs: docsPath, redoc: redocPath, swagger: swaggerPath, "filterset-fields": filtersetPath,
  login: loginPath, logout: logoutPath, graphql: graphqlPath,
};

/** The API's route table: the one generator/ir put on it, the one the runtime serves. */
const routesOf = (api: IrApi): DrfRoute[] => api.drfRoutes ?? drfRoutes(api);

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
  return {
    openapi: "3.1.0",
    info: { title: api.title, version, description: api.description },
    servers: [{ url: "/" }],
    security: [{ tokenAuth: [] }],
    tags: api.apps.map((a) => ({ name: a })),
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
  };
}
