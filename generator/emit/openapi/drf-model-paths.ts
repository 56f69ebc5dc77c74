// The paths a model owns in the DRF document: list, detail, listings, actions and notes, each
// a path item with its operations. Takes the IR and one route of the route table; gives the
// path item. Component schemas and filters come from drf-models.ts.
import { listServedBy, shownSingle, type DrfRoute } from "../../../runtime/descriptor.js";
import type { IrApi, IrModel } from "../../ir/index.js";
import { operationId } from "../../ir/names.js";
import { CSV_BODY, CSV_FILE, CSV_REFUSAL, cursorParam, errorResponse, formatParam, fullOrBrief, idSchema, json, limitParam, NEGOTIATED, offsetParam, oneOrMany, optionsOperation, pageOf, respond, routeModel, throttled, unknownKeys, WITH_BODY } from "./drf-common.js";
import { filterParameters } from "./drf-models.js";
import { componentName, modelByKey, ref, type Schema } from "./schemas.js";

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
    parameters: [limitParam, offsetParam, cursorParam, c.brief, ...c.exclude, ...c.include, formatParam, ...exportParam, ...filterParameters(api, m)],
    responses: {
      "200": {
        description: "A page of objects, in the full form or the brief one; with `format=csv` or `Accept: text/csv`, every object selected as CSV",
        content: { ...json(fullOrBrief(ref(componentName.paginated(m.name)), ref(componentName.paginated(componentName.brief(m.name))))), ...CSV_FILE, ...exported },
      },
      ...c.common,
    },
  };
}

/** `<app>/<model>/`: the list, its creates (one or several), and its bulk updates and deletes. */
export function listPath(api: IrApi, route: DrfRoute, version: string): Schema {
  const c = modelContext(api, routeModel(api, route), version);
  const { m, tag } = c;
  const has = (method: string) => route.methods.includes(method);
  const list: Schema = { options: optionsOperation(operationId(m.app, m.route, "list_options"), tag) };
  if (has("GET")) list.get = listGet(api, c, version);
  if (has("POST")) {
    list.post = {
      operationId: operationId(m.app, m.route, "create"), tags: tag,
      summary: `Create a ${m.verboseName}, or several from a JSON array or CSV lines (all or none)`,
      requestBody: { required: true, content: { ...c.orForm(json(oneOrMany(ref(componentName.writable(m.name)))), ref(componentName.writable(m.name))), ...CSV_BODY } },
      responses: {
        "201": { description: "Created: the object, or the objects in the order sent (a list for CSV)", content: json(oneOrMany(c.full)) },
        ...c.withBody, "400": CSV_REFUSAL,
      },
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
export function detailPath(api: IrApi, route: DrfRoute, version: string): Schema {
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
export function listingPath(api: IrApi, route: DrfRoute, version: string): Schema {
  const c = modelContext(api, routeModel(api, route), version);
  const { m, tag } = c;
  const l = m.listings!.find((x) => route.path === `${m.app}/${x.route}/`)!;
  return {
    get: {
      operationId: operationId(m.app, l.route, "list"), tags: tag, summary: `List ${m.verboseName} objects whose ${l.column} is set`,
      parameters: [limitParam, offsetParam, formatParam, ...filterParameters(api, m, l.filters)],
      responses: { "200": { description: "A page of objects; with `format=csv` or `Accept: text/csv`, every object selected as CSV", content: { ...json(ref(componentName.paginated(m.name))), ...CSV_FILE } }, ...c.common },
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
export function actionPath(api: IrApi, route: DrfRoute, version: string): Schema {
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
export function notesPath(api: IrApi, route: DrfRoute, version: string): Schema {
  const c = modelContext(api, routeModel(api, route), version);
  const { m, tag } = c;
  const noteModel = modelByKey(api, api.noteModel!);
  return {
    parameters: [c.idParam],
    get: {
      operationId: operationId(m.app, m.route, "notes_list"), tags: tag, summary: `List the notes of a ${m.verboseName}`,
      parameters: [limitParam, offsetParam, formatParam],
      responses: { "200": { description: "A page of notes; with `format=csv` or `Accept: text/csv`, every note as CSV", content: { ...json(ref(componentName.paginated(noteModel.name))), ...CSV_FILE } }, ...c.common },
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

/** The tokens' list POST: with HTTP Basic credentials and no token, it provisions a token (throttled as passwords are). */
function provisionsTokens(post: Schema): Schema {
  post.description = "With HTTP Basic credentials and no token, creates a token for that user (write-enabled, no expiry).";
  post.security = [{ tokenAuth: [] }, { basicAuth: [] }];
  post.responses = { ...(post.responses as Schema), "429": throttled(errorResponse) };
  return post;
}
