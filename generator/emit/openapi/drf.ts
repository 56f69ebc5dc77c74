// OpenAPI 3.1 emitter for the DRF-style profile: one document per API version with the
// list/detail/bulk paths of every model, the pagination envelope, the brief form, the
// query filters, token security and the DRF error shapes. Pure: IR in, document out.
// The document describes every exchange the server accepts, as a validating proxy must see
// them: a GET answers in the full or the brief form (`anyOf`), a list's POST takes one object
// or an array and answers in kind (`oneOf`). Typed clients want one exchange per operation:
// runtime/profiles/drf/documents.ts derives those documents from this one, by these shapes.
import { FILTER_FALSE, FILTER_TRUE, inVersion, listServedBy, requiredIn, shownSingle, type FieldDescriptor } from "../../../runtime/descriptor.js";
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

function modelPaths(api: IrApi, m: IrModel, version: string): Record<string, Schema> {
  const base = `${api.basePath}${m.app}/${m.route}/`;
  const full = ref(componentName.full(m.name));
  const tag = [m.app];
  // A field that older versions show as one object cannot show several: those replies are 412.
  const single = m.fields.some((f) => f.kind === "reverse" && shownSingle(f, version, api.versions.supported));
  const common = { ...NEGOTIATED, ...(single ? { "412": respond("PreconditionFailed") } : {}) };
  const withBody = { ...common, ...WITH_BODY };
  const brief = { name: "brief", in: "query", required: false, schema: { type: "string" }, description: "Any non-empty value selects the brief form; without it the reply is the full form." };
  const excludable = m.fields.filter((f) => f.kind === "computed" && f.excludable).map((f) => f.name);
  const exclude = excludable.length
    ? [{ name: "exclude", in: "query", required: false, schema: { type: "string" }, description: `Fields to leave out, comma-separated: ${excludable.join(", ")}.` }]
    : [];
  const optIn = m.fields.filter((f) => f.optIn).map((f) => f.name);
  const include = optIn.length
    ? [{ name: "include", in: "query", required: false, schema: { type: "string" }, description: `Opt-in fields to show, comma-separated: ${optIn.join(", ")}.` }]
    : [];
  const idParam = { name: "id", in: "path", required: true, schema: idSchema(api, m.key) };
  // `?export=<name>`: the list as the file an export template of the model renders.
  const exportParam = api.exportTemplates
    ? [{ name: "export", in: "query", required: false, schema: { type: "string" }, description: "An export template's name: the answer is the file it renders over every object selected." }]
    : [];
  const exported = api.exportTemplates ? { "*/*": { schema: { type: "string" } } } : {};
  // A bulk element names its object by id; PUT validates the rest as a full write, PATCH as a partial one.
  const byId = { type: "object", properties: { id: idSchema(api, m.key) }, required: ["id"] };
  const bulkItem = (component: string) => ({ allOf: [ref(component), byId] });
  const ops = new Set(m.operations);
  const list: Schema = { options: optionsOperation(operationId(m.app, m.route, "list_options"), tag) };
  const detail: Schema = { parameters: [idParam], options: optionsOperation(operationId(m.app, m.route, "options"), tag) };
  if (ops.has("list")) {
    list.get = {
      operationId: operationId(m.app, m.route, "list"), tags: tag, summary: `List ${m.verboseName} objects`,
      parameters: [
        limitParam,
        offsetParam,
        cursorParam,
        brief,
        ...exclude,
        ...include,
        ...exportParam,
        ...filterParameters(api, m),
      ],
      responses: {
        "200": {
          description: "A page of objects, in the full form or the brief one",
          content: { ...json(fullOrBrief(ref(componentName.paginated(m.name)), ref(componentName.paginated(componentName.brief(m.name))))), ...exported },
        },
        ...common,
      },
    };
  }
  // A model with an image field also takes one object as multipart/form-data, the image a file part.
  const uploads = m.fields.some((f) => f.kind === "imageFile");
  const orForm = (content: Record<string, unknown>, one: Schema) => (uploads ? { ...content, "multipart/form-data": { schema: one } } : content);
  if (ops.has("create")) {
    list.post = {
      operationId: operationId(m.app, m.route, "create"), tags: tag,
      summary: `Create a ${m.verboseName}, or several from a JSON array (all or none)`,
      requestBody: { required: true, content: orForm(json(oneOrMany(ref(componentName.writable(m.name)))), ref(componentName.writable(m.name))) },
      responses: { "201": { description: "Created: the object, or the objects in the order sent", content: json(oneOrMany(full)) }, ...withBody },
    };
  }
  if (ops.has("update")) {
    for (const method of ["put", "patch"] as const) {
      list[method] = {
        operationId: operationId(m.app, m.route, method === "put" ? "bulk_update" : "bulk_partial_update"), tags: tag,
        summary: `Update several ${m.verboseName} objects (all or none)`,
        requestBody: { required: true, content: json({ type: "array", items: bulkItem(method === "put" ? componentName.writable(m.name) : componentName.patched(m.name)) }) },
        responses: { "200": { description: "Updated objects", content: json({ type: "array", items: full }) }, ...withBody },
      };
    }
    detail.put = {
      operationId: operationId(m.app, m.route, "update"), tags: tag, summary: `Replace a ${m.verboseName}`,
      requestBody: { required: true, content: orForm(json(ref(componentName.writable(m.name))), ref(componentName.writable(m.name))) },
      responses: { "200": { description: "Updated", content: json(full) }, ...withBody },
    };
    detail.patch = {
      operationId: operationId(m.app, m.route, "partial_update"), tags: tag, summary: `Change some fields of a ${m.verboseName}`,
      requestBody: { required: true, content: orForm(json(ref(componentName.patched(m.name))), ref(componentName.patched(m.name))) },
      responses: { "200": { description: "Updated", content: json(full) }, ...withBody },
    };
  }
  if (ops.has("delete")) {
    list.delete = {
      operationId: operationId(m.app, m.route, "bulk_destroy"), tags: tag, summary: `Delete several ${m.verboseName} objects (all or none)`,
      requestBody: { required: true, content: json({ type: "array", items: byId }) },
      responses: { "204": { description: "Deleted" }, ...WITH_BODY },
    };
    detail.delete = {
      operationId: operationId(m.app, m.route, "destroy"), tags: tag, summary: `Delete a ${m.verboseName}`,
      responses: { "204": { description: "Deleted" }, ...NEGOTIATED, "409": respond("Conflict") },
    };
  }
  if (ops.has("retrieve")) {
    detail.get = {
      operationId: operationId(m.app, m.route, "retrieve"), tags: tag, summary: `Get a ${m.verboseName}`,
      parameters: [brief, ...exclude, ...include],
      responses: { "200": { description: "The object, in the full form or the brief one", content: json(fullOrBrief(full, ref(componentName.brief(m.name)))) }, ...common },
    };
  }
  const listings = Object.fromEntries((m.listings ?? []).map((l) => [`${api.basePath}${m.app}/${l.route}/`, {
    get: {
      operationId: operationId(m.app, l.route, "list"), tags: tag, summary: `List ${m.verboseName} objects whose ${l.column} is set`,
      parameters: [limitParam, offsetParam, ...filterParameters(api, m, l.filters)],
      responses: { "200": { description: "A page of objects", content: json(ref(componentName.paginated(m.name))) }, ...common },
    },
    options: optionsOperation(operationId(m.app, l.route, "list_options"), tag),
  }]));
  const actionPath = (a: NonNullable<IrModel["actions"]>[number]) =>
    (a.onApp ? `${api.basePath}${m.app}/${a.name}/` : a.path ? `${base}${a.path.join("/")}/` : `${base}{id}/${a.name}/`);
  const pathParams = (a: NonNullable<IrModel["actions"]>[number]) => (a.onApp ? [] : a.path
    ? a.path.filter((s) => s.startsWith("{")).map((s) => ({ name: s.slice(1, -1), in: "path", required: true, schema: { type: "string" } }))
    : [idParam]);
  const actionId = (a: NonNullable<IrModel["actions"]>[number], verb: string) =>
    operationId(m.app, a.onApp ? a.name : m.route, a.onApp ? verb : verb === "list" ? a.name : `${a.name}_${verb}`);
  const actions = Object.fromEntries((m.actions ?? []).filter((a) => !a.servesList).map((a) => [actionPath(a), {
    ...(pathParams(a).length ? { parameters: pathParams(a) } : {}),
    ...(a.method === "POST" ? {
      post: {
        operationId: actionId(a, "create"), tags: tag, summary: a.description,
        requestBody: { required: true, content: { ...json(a.request ?? {}), ...(a.multipart ? { "multipart/form-data": { schema: a.multipart } } : {}) } },
        responses: { [String(a.status ?? 200)]: { description: a.description, content: json(a.response) }, ...withBody },
      },
    } : {
      get: {
        operationId: actionId(a, "list"), tags: tag, summary: a.description,
        parameters: [
          ...(a.paginated ? [limitParam, offsetParam] : []),
          ...Object.entries(a.parameters ?? {}).map(([name, p]) => ({ name, in: "query", required: p.required ?? false, description: p.description, schema: { type: "string" } })),
        ],
        responses: {
          [String(a.status ?? 200)]: { description: a.description, content: json(a.paginated ? pageOf(a.response) : a.response) },
          ...common,
        },
      },
    }),
    ...(a.creates ? { post: createsOperation(api, m, a.name, a.creates, withBody) } : {}),
    options: optionsOperation(actionId(a, a.onApp ? "list_options" : "options"), tag),
  }]));
  // A version whose list an action answers (Nautobot's versioned list views) documents that answer.
  const serving = listServedBy(m, version, api.versions.supported);
  if (serving && list.get) {
    list.get = {
      operationId: operationId(m.app, m.route, "list"), tags: tag, summary: serving.description,
      responses: { [String(serving.status ?? 200)]: { description: serving.description, content: json(serving.response) }, ...common },
    };
  }
  const noteModel = m.features.notes ? api.models.find((x) => x.key === api.noteModel) : undefined;
  const notes = noteModel ? { [`${base}{id}/notes/`]: {
    parameters: [idParam],
    get: {
      operationId: operationId(m.app, m.route, "notes_list"), tags: tag, summary: `List the notes of a ${m.verboseName}`,
      parameters: [limitParam, offsetParam],
      responses: { "200": { description: "A page of notes", content: json(ref(componentName.paginated(noteModel.name))) }, ...common },
    },
    post: {
      operationId: operationId(m.app, m.route, "notes_create"), tags: tag, summary: `Attach a note to a ${m.verboseName}`,
      requestBody: { required: true, content: json({ type: "object", properties: { note: { type: "string" } }, required: ["note"], ...unknownKeys(api) }) },
      responses: { "201": { description: "Created", content: json(ref(componentName.full(noteModel.name))) }, ...withBody },
    },
    options: optionsOperation(operationId(m.app, m.route, "notes_options"), tag),
  } } : {};
  return { [base]: list, [`${base}{id}/`]: detail, ...listings, ...actions, ...notes };
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

function tokenProvisioning(api: IrApi, paths: Record<string, Schema>): void {
  if (!api.auth?.tokens) return;
  const tokens = modelByKey(api, api.auth.tokens);
  const path = `${api.basePath}${tokens.app}/${tokens.route}/`;
  const post = paths[path]?.post as Schema | undefined;
  if (!post) return;
  post.description = "With HTTP Basic credentials and no token, creates a token for that user (write-enabled, no expiry).";
  post.security = [{ tokenAuth: [] }, { basicAuth: [] }];
  post.responses = { ...(post.responses as Schema), "429": throttled(errorResponse) };
}

/** The browsable view's login: a session token in an HttpOnly cookie, writing only with its CSRF token (needs auth tokens). */
function browserLogin(api: IrApi, paths: Record<string, Schema>): void {
  if (!api.auth?.tokens) return;
  const html = { "text/html": { schema: { type: "string" } } };
  const redirect = { description: "Logged in (or out); redirect to `next` or the API root", headers: { Location: { schema: { type: "string" } } } };
  paths[`${api.basePath}login/`] = {
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
        "302": redirect, "403": { description: "Invalid username/password (the form again), or a malformed Authorization header", content: { ...html, ...json(ref("Error")) } },
        "429": throttled((description) => ({ description, content: html })),
      },
    },
    options: { ...optionsOperation("login_options", []), security: [] },
  };
  paths[`${api.basePath}logout/`] = {
    post: {
      operationId: "logout", summary: "Log a browser out: deletes its session token and cookie", security: [],
      responses: { "302": redirect, ...NEGOTIATED },
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

/** The route of each user's own settings in the users' app (Nautobot's `users/config/`). */
const SETTINGS_ROUTE = "config";

/** `<users app>/config/`: the requester's own settings, read, and merged into by a PATCH. */
function settingsPaths(app: string): Schema {
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

/**
 * The documents derived from this one with one exchange per operation, for typed clients
 * (runtime/profiles/drf/documents.ts derives them; an unknown form is a 404).
 */
const FORM = {
  name: "form", in: "query", required: false, schema: { enum: ["full", "brief", "bulk"] },
  description: "A document with one exchange per operation instead of this one: `full` (GETs in the full form, POSTs of one object), "
    + "`brief` (the GETs that have a brief form, in it) or `bulk` (the POSTs that take an array, with arrays).",
};

/** `/docs/` (Swagger UI, or with `?format=openapi` this document) and `/swagger.json`, for the version asked. */
function documentPaths(api: IrApi, paths: Record<string, Schema>): void {
  const doc = { type: "object", properties: { openapi: { type: "string" } }, required: ["openapi", "info", "paths"] };
  paths[`${api.basePath}docs/`] = getOnly({
    operationId: "docs", summary: "Swagger UI for this version's document; with `?format=openapi`, the document itself (as pynautobot's `openapi()` reads it)", security: [],
    parameters: [{ name: "format", in: "query", required: false, schema: { enum: ["openapi", "json", "api"] }, description: "`openapi` answers with the OpenAPI document of the version asked (`api_version` or the Accept header)." }, FORM],
    responses: { "200": { description: "The page, or the document", content: { "text/html": { schema: { type: "string" } }, "application/json": { schema: doc } } } },
  });
  paths[`${api.basePath}swagger.json`] = getOnly({
    operationId: "schema", summary: "The OpenAPI document of the version asked (`api_version` or the Accept header)", security: [], parameters: [FORM],
    responses: { "200": { description: "The document", content: { "application/vnd.oai.openapi+json": { schema: doc }, "application/json": { schema: doc } } } },
  });
  const yaml = { type: "string", description: "The document in YAML" };
  const format = { name: "format", in: "query", required: false, schema: { enum: ["yaml", "json"] }, description: "`json` answers in JSON, as a JSON media type in the Accept header does." };
  paths[`${api.basePath}swagger/`] = getOnly({
    operationId: "schema_negotiated", summary: "The OpenAPI document of the version asked, in YAML unless JSON is asked for", security: [], parameters: [format, FORM],
    responses: { "200": { description: "The document", content: {
      "application/vnd.oai.openapi": { schema: yaml }, "application/yaml": { schema: yaml },
      "application/vnd.oai.openapi+json": { schema: doc }, "application/json": { schema: doc },
    } } },
  });
  paths[`${api.basePath}swagger.yaml`] = getOnly({
    operationId: "schema_yaml", summary: "The OpenAPI document of the version asked, in YAML", security: [], parameters: [FORM],
    responses: { "200": { description: "The document", content: { "application/vnd.oai.openapi": { schema: yaml }, "application/yaml": { schema: yaml } } } },
  });
  paths[`${api.basePath}redoc/`] = getOnly({
    operationId: "redoc", summary: "ReDoc for this version's document", security: [],
    responses: { "200": { description: "The page", content: { "text/html": { schema: { type: "string" } } } } },
  });
}

/** `/core/filterset-fields/…`: what the filter form asks of a model's filter set (Nautobot's core API). */
function filtersetPaths(api: IrApi, paths: Record<string, Schema>): void {
  const parameters = [
    { name: "content_type", in: "query", required: true, schema: { type: "string" }, description: "The model, as `<app>.<model>`" },
    { name: "field_name", in: "query", required: true, schema: { type: "string" }, description: "A filter parameter of the model's list" },
  ];
  const refusal = (description: string) => ({ description, content: json({ type: "string" }) });
  const refusals = {
    "400": refusal("`content_type and field_name are required parameters`"),
    "404": refusal("`content_type not found`, `field_name not found`, or an `api_version` this server does not offer"),
  };
  const path = (name: string, operation: Schema) => {
    paths[`${api.basePath}core/filterset-fields/${name}/`] = {
      get: { ...operation, parameters, tags: ["core"], responses: { ...(operation.responses as Schema), ...NEGOTIATED, ...refusals } },
      options: { ...optionsOperation(`${String(operation.operationId)}_options`, ["core"]), security: [] },
    };
  };
  const choice = { type: "object", properties: { id: { type: "string" }, name: { type: "string" } }, required: ["id", "name"], additionalProperties: false };
  path("lookup-choices", {
    operationId: "core_filterset_fields_lookup_choices", summary: "The lookup expressions the filter set offers for a field (`name__ic`: contains (ic)), with their labels (authenticated users)",
    responses: { "200": { description: "The lookups", content: json({
      type: "object", required: ["count", "next", "previous", "results"], additionalProperties: false,
      properties: { count: { type: "integer", minimum: 0 }, next: { type: "null" }, previous: { type: "null" }, results: { type: "array", items: choice } },
    }) } },
  });
  path("lookup-value-dom-element", {
    operationId: "core_filterset_fields_lookup_value_dom_element", summary: "The HTML form input of a filter field (authenticated users)",
    responses: { "200": { description: "The input", content: json({ type: "object", properties: { dom_element: { type: "string" } }, required: ["dom_element"], additionalProperties: false }) } },
  });
}

export function emitDrfOpenApi(api: IrApi, version: string): Schema {
  const schemas: Record<string, Schema> = { Error: ERROR_DETAIL, ValidationError: VALIDATION_ERROR, Metadata: METADATA, MetadataField: METADATA_FIELD };
  let paths: Record<string, Schema> = {};
  // Who uses each path's parameters: a model's name names its variant of a shared parameter.
  const owners = new Map<string, string>();
  for (const m of api.models) {
    Object.assign(schemas, modelComponents(api, m, version));
    const own = modelPaths(api, m, version);
    for (const path of Object.keys(own)) owners.set(path, m.name);
    Object.assign(paths, own);
  }
  const rootLinks = [...api.apps, ...api.rootLinks].sort(byCodePoint);
  paths[api.basePath] = getOnly({
    operationId: "api_root", summary: "The API root: a link to each application",
    security: [],
    responses: { "200": { description: "Links", content: json({ type: "object", properties: Object.fromEntries(rootLinks.map((a) => [a, { type: "string", format: "uri" }])), required: rootLinks, additionalProperties: false }) } },
  });
  const settingsApp = api.auth?.settings ? modelByKey(api, api.auth.users).app : undefined;
  for (const app of api.apps) {
    const routes = [...api.models.filter((m) => m.app === app).flatMap((m) => [
      m.route, ...(m.listings ?? []).map((l) => l.route), ...(m.actions ?? []).filter((a) => a.onApp).map((a) => a.name),
    ]), ...(app === settingsApp ? [SETTINGS_ROUTE] : [])].sort(byCodePoint);
    paths[`${api.basePath}${app}/`] = getOnly({
      operationId: `${app}_root`, summary: `The ${app} application: a link to each model`, tags: [app],
      security: [],
      responses: { "200": { description: "Links", content: json({ type: "object", properties: Object.fromEntries(routes.map((r) => [r, { type: "string", format: "uri" }])), required: routes, additionalProperties: false }) } },
    }, [app]);
  }
  paths[`${api.basePath}status/`] = getOnly({
    operationId: "status", summary: "Server status (authenticated users)",
    responses: { "200": { description: "Versions and installed applications", content: json(statusSchema(api)) } },
  });
  documentPaths(api, paths);
  filtersetPaths(api, paths);
  if (settingsApp) paths[`${api.basePath}${settingsApp}/${SETTINGS_ROUTE}/`] = settingsPaths(settingsApp);
  tokenProvisioning(api, paths);
  browserLogin(api, paths);
  const parameters = new SharedParameters();
  paths = Object.fromEntries(Object.keys(paths).sort(byCodePoint).map((k) => [k, parameters.share(paths[k], owners.get(k) ?? k.slice(api.basePath.length))]));
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
