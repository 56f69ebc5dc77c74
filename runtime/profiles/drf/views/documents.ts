// The OpenAPI documents and the pages that show them: `docs/` (Swagger UI, or the document
// itself for `?format=openapi`), `redoc/`, and `swagger/`, `swagger.json`, `swagger.yaml` as
// drf-spectacular's views render them.
import { gunzipSync, gzipSync } from "node:zlib";
import { stringify as toYaml } from "yaml";
import { HttpError, notFound } from "../../../errors.js";
import { parseAccept } from "../../../http/request.js";
import { cspNonce } from "../../../http/security.js";
import { templates } from "../../../http/templates.js";
import type { Ctx } from "../context.js";
import { only } from "./allow.js";
import type { ApiDescriptor, PluginDescriptor } from "../../../descriptor.js";
import { servedDocument, servedForm, type Form, type ParameterStyle } from "../documents.js";

/** The OpenAPI document's media types (drf-spectacular's renderers): YAML ones, then JSON ones. */
const YAML_TYPES = ["application/vnd.oai.openapi", "application/yaml"];
export const SCHEMA_TYPES = [...YAML_TYPES, "application/vnd.oai.openapi+json", "application/json"];

/**
 * Each document rendered (by version, form and format), gzipped, of each API: a document never
 * changes while the process runs, and rendering one takes some 60 ms (JSON) to 700 ms (YAML)
 * of the event loop, where unzipping it again takes a few. Only the gzipped bytes are kept
 * (a 1.7 MB document is some 90 kB so): every rendering there is, kept as text, would be
 * tens of megabytes, and the parsed documents they come from as much again.
 */
const renderings = new WeakMap<ApiDescriptor, Map<string, Buffer>>();
function rendering(api: ApiDescriptor, version: string, form: Form | undefined, as: "json" | "yaml", enabled: readonly PluginDescriptor[], parameters: ParameterStyle): Buffer {
  let rendered = renderings.get(api);
  if (!rendered) renderings.set(api, (rendered = new Map()));
  const key = `${version} ${form ?? ""} ${as} ${parameters} ${enabled.map((p) => p.name).join(",")}`;
  let gzipped = rendered.get(key);
  if (!gzipped) {
    const document = servedDocument(api, version, form, enabled, parameters);
    rendered.set(key, (gzipped = gzipSync(as === "yaml" ? toYaml(document, { aliasDuplicateObjects: false }) : JSON.stringify(document))));
  }
  return gzipped;
}

/** Sends a rendering as `type`: as it is kept to a client that accepts gzip, else as text. */
function sendDocument(ctx: Ctx, type: string, gzipped: Buffer): void {
  ctx.res.status(200).type(type).vary("Accept-Encoding");
  const gzip = parseAccept(ctx.req.get("accept-encoding")).some((t) => t.q > 0 && (t.type === "gzip" || t.type === "*"));
  if (!gzip) {
    ctx.res.send(gunzipSync(gzipped).toString("utf8"));
    return;
  }
  ctx.res.setHeader("Content-Encoding", "gzip");
  ctx.res.send(gzipped);
}

export function docs(ctx: Ctx): Promise<void> | void {
  return only(ctx, ["GET"], () => {
    const { api } = ctx.drf;
    // The document itself, of the version negotiated here: a redirect to swagger.json (as
    // Nautobot answers) would drop `api_version`, and clients such as pynautobot's openapi()
    // expect JSON from this URL. Its parameters are written inline: the clients that read this
    // URL take each one's name without following a `$ref`.
    if (ctx.params.get("format")?.at(-1) === "openapi") {
      sendDocument(ctx, "json", rendering(api, ctx.version, servedForm(ctx.params.get("form")?.at(-1)), "json", ctx.drf.plugins, "inline"));
      return;
    }
    const url = `${api.basePath}swagger.json?api_version=${encodeURIComponent(ctx.version)}`;
    ctx.res.type("html").send(templates.swagger({ title: api.title, assets: `${api.basePath}docs/static`, schemaUrl: JSON.stringify(url), nonce: cspNonce(ctx.res) }));
  });
}

export function redoc(ctx: Ctx): Promise<void> | void {
  return only(ctx, ["GET"], () => {
    const { api } = ctx.drf;
    const url = `${api.basePath}swagger/?api_version=${encodeURIComponent(ctx.version)}`;
    ctx.res.type("html").send(templates.redoc({ title: api.title, assets: `${api.basePath}redoc/static`, schemaUrl: JSON.stringify(url), nonce: cspNonce(ctx.res) }));
  });
}

/**
 * The OpenAPI document as drf-spectacular's views render it: `swagger/` in YAML unless JSON is
 * asked for (`?format=json` or a JSON media type), `swagger.yaml` only in YAML, `swagger.json` only in JSON.
 */
export function schema(ctx: Ctx): Promise<void> | void {
  const offered = ctx.match.route.document;
  const offers = { yaml: offered !== "json", json: offered !== "yaml" };
  return only(ctx, ["GET"], () => {
    const format = ctx.params.get("format")?.at(-1) || undefined;
    // DRF answers a format none of the view's renderers has with 404.
    if (format !== undefined && !((format === "yaml" && offers.yaml) || (format === "json" && offers.json))) throw notFound();
    const accepted = parseAccept(ctx.req.get("accept")).find((t) => t.q > 0 && (SCHEMA_TYPES.includes(t.type) || ["*/*", "application/*", "text/html"].includes(t.type)));
    const type = format === "json" ? "application/vnd.oai.openapi+json"
      : format === "yaml" ? "application/vnd.oai.openapi"
      : accepted && SCHEMA_TYPES.includes(accepted.type) ? accepted.type
      : offers.yaml ? "application/vnd.oai.openapi" : "application/vnd.oai.openapi+json";
    const asYaml = YAML_TYPES.includes(type);
    if (!(asYaml ? offers.yaml : offers.json)) throw new HttpError(406, "Could not satisfy the request Accept header.", "not_acceptable");
    sendDocument(ctx, type, rendering(ctx.drf.api, ctx.version, servedForm(ctx.params.get("form")?.at(-1)), asYaml ? "yaml" : "json", ctx.drf.plugins, "shared"));
  });
}
