// The route table of a WordPress-style API, decided at generate time from its models: per
// route its regex (as WordPress shows it), the model it serves, and endpoints with their verbs,
// the view that serves them and their args, in registration order. Emitted into the API
// descriptor: the runtime profile dispatches and lists what it says, and the OpenAPI emitter
// documents the same table.
import type { ApiDescriptor, FieldDescriptor, ModelDescriptor, WpArg, WpRoute } from "../../runtime/descriptor.js";

type RouteSource = Pick<ApiDescriptor, "basePath" | "apps" | "models" | "settings">;

const EDITABLE = ["POST", "PUT", "PATCH"];

/** The JSON type a write field's argument declares; none for links (ids, lists or objects). */
function argType(f: FieldDescriptor): "boolean" | "number" | "string" | undefined {
  if (f.kind === "m2m" || f.kind === "fk") return undefined;
  if (f.kind !== "scalar") return "string";
  return f.type === "boolean" ? "boolean" : f.type === "float" ? "number" : "string";
}

function fieldArg(f: FieldDescriptor, create: boolean): WpArg {
  const type = argType(f);
  return {
    ...(type ? { type } : {}),
    ...(f.description ? { description: f.description } : {}),
    ...(f.kind === "choice" ? { enum: f.choices.map(([v]) => v) } : {}),
    required: create && f.required,
  };
}

function writeArgs(m: ModelDescriptor, create: boolean): Record<string, WpArg> {
  const clock = m.wordpress!.wallClock;
  const derived = new Set(["id", "url", "display", ...(clock ? [clock.utcStart, clock.utcEnd] : [])]);
  return Object.fromEntries(m.fields.filter((f) => !f.readOnly && !derived.has(f.name)).map((f) => [f.name, fieldArg(f, create)]));
}

const page = (settings: Record<string, unknown>): Record<string, WpArg> => ({
  page: { type: "integer", description: "The archive page to return.", default: 1, required: false },
  per_page: { type: "integer", description: "The number of results per page.", default: Number(settings.PER_PAGE ?? 10), required: false },
});
const list = (description: string): WpArg => ({ type: "array", items: { type: "integer" }, description, required: false });
const text = (description: string): WpArg => ({ type: "string", description, required: false });

/** The archive parameters of a model, as named by the Archive class. */
function archiveArgs(api: RouteSource, m: ModelDescriptor): Record<string, WpArg> {
  const wp = m.wordpress!;
  const args: Record<string, WpArg> = { ...page(api.settings), search: text("Text searched in the record's fields.") };
  const links = api.models.filter((o) => o.wordpress && o !== m && o.fields.some((f) => (f.kind === "fk" || f.kind === "m2m") && f.target === m.key));
  if (wp.kind === "term") {
    Object.assign(args, {
      exclude: list("Ids to leave out."), include: list("Only these ids."),
      order: text("asc or desc."), orderby: text("Sort attribute: name, id, slug or description."),
      hide_empty: { type: "boolean", description: "Hide terms no record uses.", default: true, required: false },
    });
    if (m.fields.some((f) => f.name === "parent")) args.parent = { type: "integer", description: "Only children of this term.", required: false };
    args.post = { type: "integer", description: "Only terms of this record.", required: false };
    for (const o of links) args[o.wordpress!.noun] = { type: "integer", description: `Alias of post.`, required: false };
    args.slug = text("Only the term with this slug.");
    return args;
  }
  if (wp.wallClock) {
    args.start_date = { type: "string", description: "Records that start on or after this date (day granularity).", required: false };
    args.end_date = { type: "string", description: "Records that end on or before this date (day granularity).", required: false };
  }
  // Only a post type linking to others (events) filters by its flags; a linked type's archive
  // (venues, organizers) takes none, so none is offered.
  const linksOut = m.fields.some((f) => (f.kind === "fk" || f.kind === "m2m") && api.models.find((t) => t.key === f.target)?.wordpress);
  for (const f of m.fields) {
    if (linksOut && f.kind === "scalar" && f.type === "boolean" && f.name !== wp.hiddenFlag) args[f.name] = { type: "boolean", description: `Filter by ${f.name}.`, required: false };
    if ((f.kind === "fk" || f.kind === "m2m") && api.models.find((t) => t.key === f.target)?.wordpress) args[f.name] = list(`Records linked to any of these ids${api.models.find((t) => t.key === f.target)!.wordpress!.kind === "term" ? " or slugs" : ""}.`);
  }
  args.status = { description: "Statuses to list (CSV or array).", required: false };
  if (m.fields.some((f) => f.kind === "fk" && api.models.find((t) => t.key === f.target)?.wordpress?.geo)) {
    args.geoloc = { type: "boolean", description: "Only records at a place with coordinates.", required: false };
    args.geoloc_lat = { description: "Latitude of the centre of the geofence; needs geoloc_lng.", required: false };
    args.geoloc_lng = { description: "Longitude of the centre of the geofence; needs geoloc_lat.", required: false };
  }
  if (wp.wallClock) args.include = list("Only these ids (comma-separated); date filters are then ignored.");
  for (const o of links) {
    args[o.wordpress!.noun] = { type: "integer", description: `Only records linked to this ${o.wordpress!.noun}.`, required: false };
    args[`has_${o.wordpress!.listKey}`] = { description: `Only records with (true) or without (false) ${o.wordpress!.listKey}.`, required: false };
    if (o.wordpress!.wallClock) args.only_with_upcoming = { description: `Only records with upcoming ${o.wordpress!.listKey}.`, default: false, required: false };
  }
  return args;
}

export function wordpressRoutes(api: RouteSource): WpRoute[] {
  const ns = `/${api.basePath.replace(/^\/|\/$/g, "")}`;
  const routes: WpRoute[] = [
    { regex: ns, endpoints: [{ methods: ["GET"], view: "namespace", args: { namespace: { default: ns.slice(1), required: false }, context: { default: "view", required: false } } }] },
    { regex: `${ns}/doc`, endpoints: [{ methods: ["GET"], view: "doc", args: {} }] },
  ];
  // The index lists routes in registration order, and WordPress plugins register their post
  // types' routes (in the order of the spec's apps) before their taxonomies' ones.
  const rank = (x: ModelDescriptor) => (x.wordpress!.kind === "post" ? 0 : api.apps.length) + api.apps.indexOf(x.app);
  const models = api.models.filter((x) => x.wordpress).map((x, i) => ({ x, i }));
  models.sort((a, b) => rank(a.x) - rank(b.x) || a.i - b.i);
  for (const { x: m } of models) {
    const wp = m.wordpress!;
    const base = `${ns}/${wp.listKey}`;
    const idArg = { id: { type: "integer", description: "Record id.", required: true } };
    const update = { ...idArg, ...writeArgs(m, false) };
    routes.push({ regex: base, model: m.key, endpoints: [{ methods: ["GET"], view: "archive", args: archiveArgs(api, m) }, { methods: ["POST"], view: "create", args: writeArgs(m, true) }] });
    const del: Record<string, WpArg> = wp.kind === "post" ? { ...idArg, force: { type: "boolean", description: "Delete permanently instead of moving to the trash.", default: false, required: false } } : idArg;
    routes.push({
      regex: `${base}/(?P<id>\\d+)`,
      model: m.key,
      endpoints: wp.kind === "post"
        ? [{ methods: ["GET"], view: "read", args: idArg }, { methods: ["DELETE"], view: "delete", args: del }, { methods: EDITABLE, view: "update", args: update }]
        : [{ methods: ["GET"], view: "read", args: idArg }, { methods: EDITABLE, view: "update", args: update }, { methods: ["DELETE"], view: "delete", args: del }],
    });
    if (wp.slugRoutes) {
      const slugArg = { slug: { type: "string", description: "Record slug.", required: true } };
      const { id: _id, ...rest } = update;
      routes.push({
        regex: `${base}/by-slug/(?P<slug>[^/]+)`,
        model: m.key,
        endpoints: [
          { methods: ["GET"], view: "read", args: slugArg }, { methods: ["DELETE"], view: "delete", args: { ...slugArg, force: del.force } },
          { methods: EDITABLE, view: "update", args: { ...slugArg, ...rest } },
        ],
      });
    }
  }
  return routes;
}

