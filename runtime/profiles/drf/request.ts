// What views read from a request: its body (JSON or multipart), its filters, how its answer
// is shaped, and the actor its writes run as.
import type { ModelDescriptor } from "../../descriptor.js";
import type { ActionEvent } from "../../hook-events.js";
import { HttpError, ValidationError } from "../../errors.js";
import { contentType } from "../../http/request.js";
import { BodyProblem, parseJson } from "../../http/body.js";
import { parseMultipart, Upload } from "../../http/multipart.js";
import { requestId } from "../../http/failures.js";
import type { Actor, Operation } from "../../operations/index.js";
import type { FilterPlan } from "../../query/filters.js";
import type { Ctx } from "./context.js";

/** Query parameters that are never filters. */
export const RESERVED = new Set(["api_version", "brief", "format", "include", "limit", "offset", "exclude", "cursor"]);

/** A multipart/form-data body's parts, as DRF's MultiPartParser reads them; a malformed one is its 400. */
export async function readParts(ctx: Ctx): Promise<Record<string, string | Upload>> {
  try {
    return await parseMultipart(Buffer.isBuffer(ctx.req.body) ? ctx.req.body : Buffer.alloc(0), ctx.req.get("content-type") ?? "");
  } catch (err) {
    if (err instanceof BodyProblem) throw new HttpError(400, `Multipart form parse error - ${err.message}`, "parse_error");
    throw err;
  }
}

/** An action's multipart body: its text fields and its files by field name. */
export async function readForm(ctx: Ctx): Promise<NonNullable<ActionEvent["form"]>> {
  const form: NonNullable<ActionEvent["form"]> = { fields: {}, files: {} };
  for (const [name, part] of Object.entries(await readParts(ctx))) {
    if (part instanceof Upload) form.files[name] = { filename: part.filename, content: part.data };
    else form.fields[name] = part;
  }
  return form;
}

/** A write's body: JSON, or, for a model with an image field, also multipart/form-data (text parts as strings, the files as uploads). */
export function readBody(ctx: Ctx, m: ModelDescriptor): Promise<unknown> | unknown {
  if (contentType(ctx.req) !== "multipart/form-data" || !m.fields.some((f) => f.kind === "imageFile")) return readJson(ctx);
  return readParts(ctx);
}

export function readJson(ctx: Ctx): unknown {
  const type = contentType(ctx.req);
  const raw = Buffer.isBuffer(ctx.req.body) ? ctx.req.body : Buffer.alloc(0);
  // A body-less request without a content type carries no data (token provisioning by Basic).
  if (raw.length === 0 && !ctx.req.get("content-type")) return {};
  if (type !== "application/json") {
    throw new HttpError(415, `Unsupported media type "${ctx.req.get("content-type") ?? ""}" in request.`, "unsupported_media_type");
  }
  try {
    return parseJson(raw.toString("utf8"));
  } catch (err) {
    if (err instanceof BodyProblem) throw new HttpError(400, `JSON parse error - ${err.message}`, "parse_error");
    throw err;
  }
}

export function expectList(body: unknown): unknown[] {
  if (!Array.isArray(body)) {
    throw new ValidationError({ non_field_errors: [`Expected a list of items but got type "${body === null ? "NoneType" : typeof body === "object" ? "dict" : typeof body}".`] });
  }
  return body;
}

/** How the answer's objects are read: their shape, version, fields left out or opted in. */
export function readOpts(ctx: Ctx, brief = false) {
  return {
    shape: brief ? "brief" as const : "full" as const,
    version: ctx.version,
    exclude: (ctx.params.get("exclude") ?? []).flatMap((v) => v.split(",")),
    // Opt-in fields answer a GET that names them, and every write.
    include: ctx.req.method === "GET" || ctx.req.method === "HEAD" ? (ctx.params.get("include") ?? []).flatMap((v) => v.split(",")) : "all" as const,
    ctx: { apiUrl: ctx.apiUrl },
  };
}

export function isBrief(ctx: Ctx): boolean {
  return ctx.req.method === "GET" && (ctx.params.get("brief") ?? []).some((v) => v !== "");
}

/** The requester as the actor of an operation through `view` of `m` (Nautobot's view name, `dcim-api:site-list`). */
export function actor(ctx: Ctx, m: ModelDescriptor, view: string, subject = m): Promise<Actor> {
  return requestActor(ctx, `${m.app}-api:${m.key.split(".")[1]}-${view}`, subject.key);
}

/** The requester as an actor: their grants read (once a request) where object permissions apply. */
export async function requestActor(ctx: Ctx, contextDetail: string, subject?: string): Promise<Actor> {
  const { permissions, policy } = ctx.drf;
  if (permissions && ctx.identity) await policy.permission.grantsOf(ctx);
  return {
    userId: ctx.identity?.userId ?? null, username: ctx.identity?.username ?? null, requestId: requestId(ctx.res),
    context: "api", contextDetail, grants: ctx.grants, subject,
    ...(ctx.identity ? { superuser: ctx.identity.isSuperuser } : { anonymous: true }),
  };
}

/** The request's reads of `m` through `view`: they see the rows its requester may. */
export async function reading(ctx: Ctx, m: ModelDescriptor, view: string): Promise<Operation> {
  return await ctx.drf.operations.read(await actor(ctx, m, view));
}

/** The request's filters, planned without the database; checks left to the read that uses them. */
export async function filterFor(ctx: Ctx, op: Operation, m: ModelDescriptor): Promise<FilterPlan> {
  const { db, providers, filters, strict, reserved, store } = ctx.drf;
  const names = [...ctx.params.keys()];
  const dynamic = (await Promise.all(providers.map((load) => load(db, m, names, { strict })))).filter((d) => d !== null);
  const { errors, plan } = filters.compile(m, ctx.params, { strict, reserved, dynamic });
  // One answer names every bad parameter, so the data's verdicts join the planning errors.
  if (Object.keys(errors).length) throw new ValidationError((await store.filterErrors(op, plan, errors))!);
  return plan;
}

/** Runs the plan's checks now, for a path whose own statement cannot carry them. */
export async function confirm(ctx: Ctx, op: Operation, plan: FilterPlan): Promise<void> {
  const errors = plan.checks.length ? await ctx.drf.store.filterErrors(op, plan, {}) : null;
  if (errors) throw new ValidationError(errors);
}
