// Which OpenAPI document the docs views serve. Without `form`, the generated one: it describes
// every exchange the server accepts, as a validating proxy must see them (a GET's reply in the
// full or the brief form, a POST of one object or of an array). With `form`, a document derived
// from it with one exchange per operation, which typed clients want (a union type would make
// every field access a type error): `full` (every operation; GETs in the full form, POSTs of
// one object), `brief` (the GETs that have a brief form, in it) and `bulk` (the POSTs that take
// an array, with arrays). Each is read and derived afresh: the views keep its rendering only.
import { openApiDocument } from "../../artifacts.js";
import type { ApiDescriptor, PluginDescriptor } from "../../descriptor.js";
import { notFound } from "../../errors.js";

type Json = Record<string, any>;

export const FORMS = ["full", "brief", "bulk"] as const;
export type Form = (typeof FORMS)[number];

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * The form a request names (absent or empty: none, the generated document). An unknown form is
 * a 404, as DRF answers a `format` no renderer has: both name a rendering of the same resource.
 */
export function servedForm(form: string | undefined): Form | undefined {
  if (!form) return undefined;
  if (!(FORMS as readonly string[]).includes(form)) throw notFound();
  return form as Form;
}

/**
 * How a document writes its operations' parameters. `shared`, as generated: each distinct one
 * once under `components.parameters`, referred to with `$ref`. `inline`: written out in every
 * operation, as drf-spectacular writes them; the URL that Nautobot's older clients read
 * (`docs/?format=openapi`) serves this one, since they take `name` of each parameter and follow
 * no `$ref` (the Ansible collection's inventory plugin, plugins/inventory/inventory.py:1068 at
 * v4.5.1). Both describe the same exchanges; the shared one is about two thirds the size.
 */
export type ParameterStyle = "shared" | "inline";

/** The document of `version` in `form` (none: the generated one), read from its file, without the paths of apps not enabled. */
export function servedDocument(api: ApiDescriptor, version: string, form: Form | undefined, enabled: readonly PluginDescriptor[] = [], parameters: ParameterStyle = "shared"): Json {
  const served = withoutDisabledApps(api, openApiDocument(api, version), enabled);
  const doc = withoutUnreachedComponents(parameters === "inline" ? parametersInline(served) : served);
  return form ? deriveDocument(doc, form) : doc;
}

/** The generated document documents every app; the server serves the enabled ones only. */
function withoutDisabledApps(api: ApiDescriptor, doc: Json, enabled: readonly PluginDescriptor[]): Json {
  const off = (api.plugins ?? []).filter((p) => !enabled.includes(p)).map((p) => `${api.basePath}${p.base}/`);
  if (!off.length) return doc;
  return { ...doc, paths: Object.fromEntries(Object.entries<Json>(doc.paths).filter(([path]) => !off.some((base) => path.startsWith(base)))) };
}

/** Components referred to by name, not by `$ref`: never pruned. */
const NAMED = new Set(["securitySchemes"]);

/**
 * `doc` without the components (schemas, parameters, responses…) no path reaches, directly or
 * through other components: those of apps not enabled (the generated document describes every
 * app), forms nothing answers with, and every shared parameter once the parameters are written
 * inline (some 170 kB a client would download for nothing).
 */
function withoutUnreachedComponents(doc: Json): Json {
  if (!doc.components) return doc;
  const reached = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== "object") return;
    const ref = (value as Json).$ref;
    if (typeof ref === "string" && !reached.has(ref)) {
      reached.add(ref);
      const [, , kind, name] = ref.split("/");
      walk(doc.components[kind]?.[name]);
    }
    Object.values(value).forEach(walk);
  };
  walk(doc.paths);
  const components: Json = {};
  for (const [kind, named] of Object.entries<Json>(doc.components)) {
    if (NAMED.has(kind)) components[kind] = named;
    else {
      const kept = Object.entries(named).filter(([name]) => reached.has(`#/components/${kind}/${name}`));
      if (kept.length) components[kind] = Object.fromEntries(kept);
    }
  }
  return { ...doc, components };
}

/** `doc` with each operation's parameters written out where the generated document shares them (`components.parameters`). */
function parametersInline(doc: Json): Json {
  const shared: Json = doc.components?.parameters ?? {};
  const inline = (list: Json[] | undefined) => list?.map((p) => (typeof p.$ref === "string" ? shared[p.$ref.split("/").at(-1)!] ?? p : p));
  const paths: Json = {};
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    paths[path] = Object.fromEntries(Object.entries<Json>(item).map(([key, value]) => {
      // A path item's own list besides its operations is its shared parameters.
      if (!METHODS.has(key)) return [key, Array.isArray(value) ? inline(value) : value];
      return [key, value.parameters ? { ...value, parameters: inline(value.parameters) } : value];
    }));
  }
  return { ...doc, paths };
}

/** `doc` with each operation as `form` has it, and without the operations `form` has not. */
export function deriveDocument(doc: Json, form: Form): Json {
  const paths: Json = {};
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    const ops = Object.entries<Json>(item).filter(([key]) => METHODS.has(key))
      .map(([method, op]) => [method, exchange(doc, method, op, form)] as const)
      .filter(([, op]) => op !== undefined);
    if (form !== "full" && !ops.length) continue;
    const shared = Object.fromEntries(Object.entries(item).filter(([key]) => !METHODS.has(key)));
    paths[path] = { ...shared, ...Object.fromEntries(ops) };
  }
  return { ...doc, paths };
}

const jsonSchema = (holder: Json | undefined): Json | undefined => holder?.content?.["application/json"]?.schema;

/** A GET answering in the full or the brief form: `anyOf` [full, brief], with a `brief` parameter. */
function forms(doc: Json, method: string, op: Json): [Json, Json] | undefined {
  const schema = jsonSchema(op.responses?.["200"]);
  return method === "get" && schema?.anyOf?.length === 2 && (op.parameters ?? []).some((p: Json) => briefParameter(doc, p)) ? schema.anyOf : undefined;
}

/** One object or an array of it: `oneOf` [one, {type: array, items: one}]. */
function oneOrMany(schema: Json | undefined): [Json, Json] | undefined {
  const [one, many] = schema?.oneOf ?? [];
  return schema?.oneOf?.length === 2 && many?.type === "array" && JSON.stringify(many.items) === JSON.stringify(one) ? [one, many] : undefined;
}

/** The `brief` parameter `p` is (shared ones followed), if it is. */
function briefParameter(doc: Json, p: Json): Json | undefined {
  const param = typeof p.$ref === "string" ? doc.components?.parameters?.[p.$ref.split("/").at(-1) ?? ""] : p;
  return param?.name === "brief" ? param : undefined;
}

const withJson = (holder: Json, schema: Json): Json => ({ ...holder, content: { ...holder.content, "application/json": { schema } } });
const onlyJson = (holder: Json, schema: Json): Json => ({ ...holder, content: { "application/json": { schema } } });

/** The operation as `form` has it, or undefined where `form` has no such exchange. */
function exchange(doc: Json, method: string, op: Json, form: Form): Json | undefined {
  const briefable = forms(doc, method, op);
  const bulk = method === "post" ? oneOrMany(jsonSchema(op.requestBody)) : undefined;
  // Which branch of each union this form takes: the first is the one-object, full-form one.
  const branch = form === "full" ? 0 : 1;
  if (briefable && form !== "bulk") {
    const parameters = (op.parameters as Json[]).filter((p) => !briefParameter(doc, p));
    const served = (op.parameters as Json[]).map((p) => briefParameter(doc, p)).find((p) => p);
    const brief = { ...served, required: true, schema: { type: "string", minLength: 1 }, description: "Any non-empty value: the brief form." };
    return {
      ...op,
      ...(form === "brief" ? { operationId: `${op.operationId}_brief` } : {}),
      parameters: form === "brief" ? [...parameters, brief] : parameters,
      responses: { ...op.responses, "200": (form === "brief" ? onlyJson : withJson)(op.responses["200"], briefable[branch]) },
    };
  }
  if (bulk && form !== "brief") {
    const responses = Object.fromEntries(Object.entries<Json>(op.responses).map(([status, r]) => {
      const made = oneOrMany(jsonSchema(r));
      return [status, made ? (form === "bulk" ? onlyJson : withJson)(r, made[branch]) : r];
    }));
    return {
      ...op,
      ...(form === "bulk" ? { operationId: `${op.operationId}_bulk` } : {}),
      requestBody: (form === "bulk" ? onlyJson : withJson)(op.requestBody, bulk[branch]),
      responses,
    };
  }
  return form === "full" ? op : undefined;
}
