// DRF-style content negotiation and API versions: the version is the `version` parameter of
// the accepted JSON media type or the `api_version` query parameter. Pure: takes the Accept
// header and the query value, gives the version and renderer, or the error to send.
import { parseAccept } from "../../http/request.js";
import { HttpError } from "../../errors.js";

/** `csv`: a list as a file (csv-export.ts), where the route renders one; answers of other kinds are JSON. */
export type Renderer = "json" | "html" | "csv";

/** What a view renders besides JSON and the browsable page (the OpenAPI document's YAML and its media types). */
export interface ExtraRenderers { types: string[]; formats: string[] }

export function negotiate(accept: string | undefined, queryVersion: string | undefined, formatParam: string | undefined,
  versions: { default: string; supported: string[] }, extra: ExtraRenderers = { types: [], formats: [] }): { version: string; renderer: Renderer } {
  const types = parseAccept(accept);
  let renderer: Renderer = "json";
  let headerVersion: string | undefined;
  // DRF answers an unknown `?format=` with 404; `openapi` is the docs page's legacy alias.
  if (formatParam === "api") renderer = "html";
  else if (formatParam === "csv" && extra.formats.includes("csv")) renderer = "csv";
  else if (formatParam !== undefined && ![...extra.formats, "json", "openapi", ""].includes(formatParam)) throw new HttpError(404, "Not found.", "not_found");
  if (types.length) {
    const usable = types.find((t) => t.q > 0 && [...extra.types, "application/json", "application/*", "*/*", "text/html"].includes(t.type));
    if (!usable) throw new HttpError(406, "Could not satisfy the request Accept header.", "not_acceptable");
    if (!formatParam && usable.type === "text/html") renderer = "html";
    if (!formatParam && usable.type === "text/csv") renderer = "csv";
    const json = types.find((t) => [...extra.types, "application/json"].includes(t.type) && t.params.version !== undefined);
    headerVersion = json?.params.version || undefined;
  }
  // DRF tests both versions for truth, so an empty one (`?api_version=`) counts as not given.
  if (queryVersion === "") queryVersion = undefined;
  const list = versions.supported.join(", ");
  if (headerVersion !== undefined && queryVersion !== undefined && headerVersion !== queryVersion) {
    throw new HttpError(400, 'Version mismatch between "Accept" header and query parameter.', "version_mismatch");
  }
  if (headerVersion !== undefined && !versions.supported.includes(headerVersion)) {
    throw new HttpError(406, `Invalid version in "Accept" header. Supported versions are ${list}`, "not_acceptable");
  }
  if (queryVersion !== undefined && !versions.supported.includes(queryVersion)) {
    throw new HttpError(404, `Invalid version in query parameter. Supported versions are ${list}`, "not_found");
  }
  return { version: headerVersion ?? queryVersion ?? versions.default, renderer };
}
