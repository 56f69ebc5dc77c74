// The calendar API walked from its own OpenAPI document: every path and method, and every
// documented query parameter one at a time with a valid value. Each reply must be a status
// the operation documents, with a body its schema accepts (and the documented headers);
// valid values must be accepted (2xx), never a 5xx.
import { expect } from "chai";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { call, get, type Reply } from "../support/http.js";
import { NS, makeEvent } from "../e2e/calendar/support.js";

const addFormatsFn = addFormatsModule as unknown as { default?: (a: Ajv2020) => void } & ((a: Ajv2020) => void);

type Json = Record<string, any>;
type Op = { parameters: Array<{ name: string; in: string; schema: Json }>; requestBody?: Json; responses: Record<string, Json> };

describe("conformance: calendar API walked from its OpenAPI document", function () {
  this.timeout(120_000);
  let doc: Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsFn.default ?? addFormatsFn)(ajv);
  const validators = new Map<string, ValidateFunction>();
  /** One object per list, made for the walk: path templates are filled from it. */
  const objects: Record<string, Json> = {};
  let serial = 0;

  before(async () => {
    doc = (await get(`${NS}/doc`, { token: null })).body;
    ajv.addSchema({ $id: "doc", components: doc.components });
    const event = await makeEvent({ venue: { venue: "Walk Hall" }, organizer: [{ organizer: "Walk Org" }], categories: ["Walk cat"], tags: ["walk"] });
    objects.events = event;
    objects.venues = event.venue;
    objects.organizers = event.organizer[0];
    objects.categories = event.categories[0];
    objects.tags = event.tags[0];
  });

  /** Problems with one reply against its operation: undocumented status, schema mismatch, missing header. */
  function problems(label: string, op: Op, reply: Reply): string[] {
    const response = op.responses[String(reply.status)];
    if (!response) return [`${label}: status ${reply.status} is not documented (${reply.text.slice(0, 200)})`];
    const out: string[] = [];
    const key = `${label}|${reply.status}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(JSON.parse(JSON.stringify(response.content["application/json"].schema).replace(/"#\/components/g, "\"doc#/components")));
      validators.set(key, validate);
    }
    if (!validate(reply.body)) out.push(`${label} ${reply.status}: ${ajv.errorsText(validate.errors)}`);
    for (const h of Object.keys(response.headers ?? {})) {
      if (h !== "Retry-After" && !/^\d+$/.test(reply.headers.get(h) ?? "")) out.push(`${label}: header ${h} missing`);
    }
    return out;
  }

  /** A value the parameter's schema accepts that names something real where it can. */
  function sample(listKey: string, name: string, schema: Json): string {
    const linked = objects[`${name}s`] ?? objects[name];
    if (linked && name !== listKey) return String(linked.id);
    if (/date/.test(name)) return "2020-01-01";
    if (name === "geoloc_lat" || name === "geoloc_lng") return "10";
    if (name === "status") return "publish";
    if (schema.default !== undefined && schema.type === undefined) return String(schema.default);
    // Ids of the listed model itself, or of the events that link to it.
    if (name === "include" || name === "exclude") return String(objects[listKey].id);
    if (name === "post" || name === "event" || name === "post_parent") return String(objects.events.id);
    if (name === "parent") return "0";
    if (name === "slug") return objects[listKey].slug;
    if (name === "order") return "desc";
    if (name === "orderby") return "name";
    if (schema.enum) return String(schema.enum[0]);
    if (schema.type === "boolean" || schema.anyOf?.some((s: Json) => s.type === "boolean")) return "true";
    if (schema.type === "integer") return name === "per_page" ? "5" : "1";
    if (schema.type === "array") return String(objects[name]?.id ?? 1);
    return "walk";
  }

  function body(listKey: string, op: Op): Json {
    const given = op.requestBody?.content["application/json"].schema ?? { properties: {}, required: [] };
    // A body's schema may be a shared one, named in components.
    const schema = typeof given.$ref === "string" ? doc.components.schemas[given.$ref.split("/").at(-1)] : given;
    const out: Json = {};
    for (const name of schema.required ?? []) out[name] = /date/.test(name) ? "2031-03-01 10:00" : `Walk ${listKey} ${++serial}`;
    return out;
  }

  function fill(path: string, listKey: string): string {
    return path.replace("{id}", () => String(objects[listKey].id)).replace("{slug}", () => objects[listKey].slug);
  }

  it("every GET, with every documented parameter alone", async () => {
    const found: string[] = [];
    let requests = 0;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Op>>)) {
      const op = ops.get;
      if (!op) continue;
      const listKey = path.split("/")[1];
      const base = `${NS}${fill(path, listKey)}`.replace(/\/$/, "") || NS;
      const plain = await get(base);
      requests++;
      found.push(...problems(`GET ${path}`, op, plain));
      if (plain.status >= 300) found.push(`GET ${path}: ${plain.status} without parameters`);
      for (const p of op.parameters.filter((x) => x.in === "query")) {
        const value = sample(listKey, p.name, p.schema ?? {});
        // The two halves of a geofence centre only make sense together.
        const pair = p.name === "geoloc_lat" ? "&geoloc_lng=20" : p.name === "geoloc_lng" ? "&geoloc_lat=20" : "";
        const reply = await get(`${base}?${p.name}=${encodeURIComponent(value)}${pair}`);
        requests++;
        found.push(...problems(`GET ${path}?${p.name}=${value}`, op, reply));
        if (reply.status >= 300) found.push(`GET ${path}?${p.name}=${value}: ${reply.status} ${reply.text.slice(0, 160)}`);
      }
    }
    const documented = Object.values(doc.paths as Record<string, Record<string, Op>>)
      .reduce((n, ops) => n + (ops.get ? 1 + ops.get.parameters.filter((x) => x.in === "query").length : 0), 0);
    expect(requests).to.equal(documented);
    expect(found, found.join("\n")).to.deep.equal([]);
  });

  it("every write: create, edit by id and by slug with each verb, trash and delete", async () => {
    const found: string[] = [];
    const paths = doc.paths as Record<string, Record<string, Op>>;
    for (const listKey of Object.keys(objects)) {
      const create = paths[`/${listKey}`].post;
      const made = await call("POST", `${NS}/${listKey}`, { body: body(listKey, create) });
      found.push(...problems(`POST /${listKey}`, create, made));
      if (made.status !== 201) { found.push(`POST /${listKey}: ${made.status} ${made.text.slice(0, 160)}`); continue; }
      objects[listKey] = made.body;
      for (const template of [`/${listKey}/{id}`, `/${listKey}/by-slug/{slug}`]) {
        const ops = paths[template];
        if (!ops) continue;
        for (const verb of ["post", "put", "patch"] as const) {
          if (!ops[verb]) continue;
          const reply = await call(verb.toUpperCase(), `${NS}${fill(template, listKey)}`, { body: {} });
          found.push(...problems(`${verb.toUpperCase()} ${template}`, ops[verb], reply));
          if (reply.status !== 200) found.push(`${verb.toUpperCase()} ${template}: ${reply.status} ${reply.text.slice(0, 160)}`);
        }
      }
      const del = paths[`/${listKey}/{id}`].delete;
      const first = await call("DELETE", `${NS}/${listKey}/${made.body.id}`);
      found.push(...problems(`DELETE /${listKey}/{id}`, del, first));
      if (first.status !== 200) found.push(`DELETE /${listKey}/{id}: ${first.status}`);
      if (del.parameters.some((p) => p.name === "force")) {
        const forced = await call("DELETE", `${NS}/${listKey}/${made.body.id}?force=true`);
        found.push(...problems(`DELETE /${listKey}/{id}?force=true`, del, forced));
        if (forced.status !== 200) found.push(`DELETE /${listKey}/{id}?force=true: ${forced.status}`);
      }
      const gone = await get(`${NS}/${listKey}/${made.body.id}`);
      found.push(...problems(`GET /${listKey}/{id} after delete`, paths[`/${listKey}/{id}`].get, gone));
      if (gone.status !== 404) found.push(`GET /${listKey}/{id} after delete: ${gone.status}`);
    }
    expect(found, found.join("\n")).to.deep.equal([]);
  });

  it("an invalid value of each typed list parameter is a documented 400 in WordPress's error shape", async () => {
    const found: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Op>>)) {
      if (!ops.get || path.includes("{")) continue;
      for (const p of ops.get.parameters.filter((x) => x.schema?.type === "integer" || x.schema?.type === "boolean")) {
        const reply = await get(`${NS}${path}?${p.name}=not-a-${p.schema.type}`);
        found.push(...problems(`GET ${path}?${p.name}=<bad>`, ops.get, reply));
        if (reply.status !== 400 || typeof reply.body?.code !== "string" || reply.body?.data?.status !== 400) {
          found.push(`GET ${path}?${p.name}=<bad>: ${reply.status} ${reply.text.slice(0, 160)}`);
        }
      }
    }
    expect(found, found.join("\n")).to.deep.equal([]);
  });
});
