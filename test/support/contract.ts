// Requests and replies checked against one emitted OpenAPI document with ajv: the
// conformance walks assert with it, and the recorded client sessions are replayed through it
// (`violations`), as a validating proxy would judge them. Shared response objects
// (`components/responses`) and parameters (`components/parameters`) are followed; nothing
// here talks to a server.
import { expect } from "chai";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import type { Reply } from "./http.js";
import { OMITTED, type Exchange } from "./session.js";

// ajv-formats is CommonJS; under NodeNext its default import is the module namespace.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>;
export type Method = "get" | "post" | "put" | "patch" | "delete" | "options";

export class Contract {
  private static readonly shared = new Map<string, Contract>();

  /**
   * The process's one Contract for the document named `id` (its emitted file's name), `doc` read
   * only the first time: its compiled validators are kept, so the files a worker runs that check
   * against the same emitted document (the conformance shards, the recorded sessions) compile
   * each schema once, not once a file. By name, not by the object: a descriptor parses its
   * document afresh at every read (`ApiDescriptor.openapi`), so no two reads are the same object.
   */
  static of(id: string, doc: () => Json): Contract {
    let contract = Contract.shared.get(id);
    if (!contract) Contract.shared.set(id, (contract = new Contract(doc(), id)));
    return contract;
  }

  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  // Query values arrive as strings, one or repeated: coerce as an OpenAPI form/explode reader would.
  private readonly queryAjv = addFormats(new Ajv2020({ strict: false, coerceTypes: "array" }));
  private readonly queryCompiled = new Map<string, ValidateFunction>();
  /** Path templates, literal ones first, each with the pattern a concrete path must match. */
  private readonly templates: Array<{ template: string; pattern: RegExp }>;

  constructor(private readonly doc: Json, private readonly id: string) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: id });
    // A parameter's schema may name shared schemas: the query validator holds the document too.
    this.queryAjv.addSchema({ ...doc, $id: id });
    this.templates = Object.keys(doc.paths ?? {})
      .map((template) => ({ template, pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[^/]+")}$`) }))
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  /** Whether a query parameter's schema takes `value`, its references into the document followed. */
  private queryAccepts(schema: Json, value: unknown): boolean {
    return this.queryValidator(schema)(value) as boolean;
  }

  /**
   * One compiled validator per distinct parameter schema: the walk asks about thousands of
   * filters whose schemas are a few dozen shapes, and ajv's own cache is by object identity,
   * which a schema rewritten per call never hits (each call compiled it again).
   */
  private queryValidator(schema: Json): ValidateFunction {
    const anchored = JSON.stringify(schema).replace(/"#\/components\//g, `"${this.id}#/components/`);
    let validate = this.queryCompiled.get(anchored);
    if (!validate) this.queryCompiled.set(anchored, (validate = this.queryAjv.compile(JSON.parse(anchored))));
    return validate;
  }

  private validator(key: string): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $ref: key });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private pointer(...parts: string[]): string {
    return `${this.id}#/${parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
  }

  private errors(validate: ValidateFunction): string {
    return [...new Set(this.ajv.errorsText(validate.errors, { separator: "\n" }).split("\n"))].slice(0, 8).join("\n");
  }

  private verdict(validate: ValidateFunction, what: string, value: unknown): void {
    const ok = validate(value);
    expect(ok, `${what} does not match the document: ${this.errors(validate)}\nvalue: ${JSON.stringify(value).slice(0, 500)}`).to.equal(true);
  }

  /** The documented path template a concrete path (without its query) falls under. */
  templateOf(path: string): string | undefined {
    return this.templates.find((t) => t.pattern.test(path))?.template;
  }

  /** The response object for a status, and the JSON pointer parts where it lives (shared ones followed). */
  private response(method: Method, template: string, status: number): { response: Json; at: string[] } | undefined {
    const own = this.doc.paths?.[template]?.[method]?.responses?.[String(status)];
    if (!own) return undefined;
    const shared = typeof own.$ref === "string" ? /^#\/components\/responses\/(.+)$/.exec(own.$ref)?.[1] : undefined;
    if (shared) return { response: this.doc.components.responses[shared], at: ["components", "responses", shared] };
    return { response: own, at: ["paths", template, method, "responses", String(status)] };
  }

  /** The pointer parts of an operation's JSON request body schema. */
  private requestAt(method: Method, template: string): string[] {
    return ["paths", template, method, "requestBody", "content", "application/json", "schema"];
  }

  /** A parameter object, shared ones (`components/parameters`) followed. */
  private parameter(p: Json): Json {
    const shared = typeof p.$ref === "string" ? /^#\/components\/parameters\/(.+)$/.exec(p.$ref)?.[1] : undefined;
    return shared ? this.doc.components.parameters[shared] : p;
  }

  /** The query and path parameters of an operation: its path's and its own. */
  private parametersOf(template: string, method: Method): Json[] {
    const item = this.doc.paths?.[template];
    return [...(item?.parameters ?? []), ...(item?.[method]?.parameters ?? [])].map((p: Json) => this.parameter(p));
  }

  /** A body the server accepted must be one the document's request schema accepts too. */
  checkRequest(method: Method, template: string, body: unknown): void {
    expect(this.doc.paths?.[template]?.[method]?.requestBody, `${method.toUpperCase()} ${template} documents no request body`).to.be.an("object");
    this.verdict(this.validator(this.pointer(...this.requestAt(method, template))), `${method.toUpperCase()} ${template} request`, body);
  }

  /** Whether the documented request schema accepts a body (no assertion). */
  acceptsBody(method: Method, template: string, body: unknown): boolean {
    return this.validator(this.pointer(...this.requestAt(method, template)))(body) as boolean;
  }

  /** Query parameters the list operation documents. */
  parameters(template: string): string[] {
    return this.parametersOf(template, "get").filter((p) => p.in === "query").map((p) => p.name);
  }

  /** Whether the documented schema of a list query parameter accepts one value. */
  acceptsQuery(template: string, name: string, value: string): boolean {
    const param = this.parametersOf(template, "get").find((p) => p.name === name && p.in === "query");
    expect(param, `${name} is not a documented parameter of GET ${template}`).to.be.an("object");
    return this.queryAccepts(param!.schema, value);
  }

  /** The reply's status must be documented for the operation, and its body must match. */
  check(method: Method, template: string, reply: Reply): void {
    const problems = this.replyProblems(method, template, reply.status, reply.headers.get("content-type"), reply.body, reply.text);
    expect(problems, problems.join("\n")).to.deep.equal([]);
  }

  private replyProblems(method: Method, template: string, status: number, type: string | null, body: unknown, text: string): string[] {
    const label = `${method.toUpperCase()} ${template}`;
    if (!this.doc.paths?.[template]?.[method]) return [`${label} is not in the OpenAPI document`];
    const found = this.response(method, template, status);
    if (!found) return [`${label}: status ${status} is undocumented (body ${text.slice(0, 300)})`];
    const { response, at } = found;
    if (!response.content) return text === "" ? [] : [`${label} ${status} documents no body, got ${text.slice(0, 200)}`];
    const media = (type ?? "").split(";")[0].trim();
    const documented = Object.keys(response.content);
    if (!documented.includes(media)) return [`${label} ${status}: content type ${media || "(none)"} is not one of ${documented.join(", ")}`];
    if (!media.endsWith("json") || (body !== null && typeof body === "object" && OMITTED in body)) return [];
    const validate = this.validator(this.pointer(...at, "content", media, "schema"));
    return validate(body) ? [] : [`${label} ${status} does not match the document: ${this.errors(validate)}\nvalue: ${JSON.stringify(body).slice(0, 500)}`];
  }

  /**
   * Everything a validating proxy would object to in one recorded exchange (its path as the
   * document writes paths): an undocumented
   * path, method or status, a query value or body of a request the server took that the
   * document refuses, or a reply the document does not describe.
   */
  violations(x: Exchange): string[] {
    const url = new URL(x.path, "http://recorded");
    const method = x.method.toLowerCase() as Method;
    const template = this.templateOf(url.pathname);
    const label = `${x.method} ${x.path}`;
    if (!template) return [`${label}: no documented path`];
    const op = this.doc.paths[template][method];
    if (!op) return [`${label}: ${x.method} is not documented on ${template}`];
    const out: string[] = [];
    if (x.response.status < 300) {
      const params = this.parametersOf(template, method);
      for (const name of new Set(url.searchParams.keys())) {
        const param = params.find((p) => p.name === name && p.in === "query");
        if (!param) continue;
        const values = url.searchParams.getAll(name);
        if (!this.queryAccepts(param.schema, param.schema.type === "array" ? values : values.at(-1))) out.push(`${label}: query ${name}=${values.join(",")} refused by the document`);
      }
      if (x.request.body !== null && x.request.body !== undefined && op.requestBody) {
        const media = (x.request.headers["content-type"] ?? "application/json").split(";")[0].trim();
        if (!op.requestBody.content?.[media]) out.push(`${label}: request content type ${media} is not documented`);
        else if (media.endsWith("json")) {
          const validate = this.validator(this.pointer(...this.requestAt(method, template)));
          if (!validate(x.request.body)) out.push(`${label}: request body refused by the document: ${this.errors(validate)}\nbody: ${JSON.stringify(x.request.body).slice(0, 300)}`);
        }
      }
    }
    const text = x.response.body === null ? "" : typeof x.response.body === "string" ? x.response.body : JSON.stringify(x.response.body);
    return [...out, ...this.replyProblems(method, template, x.response.status, x.response.headers["content-type"] ?? null, x.response.body, text).map((p) => `${label}: ${p}`)];
  }
}
