// `graphql/` (../graphql.ts): POST, as Nautobot's API view, the body JSON or the query itself (a mutation writing as REST does); GraphiQL for a browser's GET.
import { contentType } from "../../../http/request.js";
import { cspNonce } from "../../../http/security.js";
import { templates } from "../../../http/templates.js";
import { answerGraphql, requesterOf } from "../graphql.js";
import { graphqlWriter } from "../graphql-writes.js";
import type { Ctx } from "../context.js";
import { readJson, requestActor } from "../request.js";
import { notAllowed } from "./allow.js";
import { JsonText } from "../../../query/json-text.js";
import { sendJsonText } from "../../../http/json-text.js";

export async function graphql(ctx: Ctx): Promise<void> {
  const { api, operations } = ctx.drf;
  const deps = ctx.drf.graphql!;
  const at = `${api.basePath}${ctx.match.route.path}`;
  ctx.res.set("Allow", "POST, OPTIONS");
  if (ctx.req.method === "GET" && ctx.renderer === "html") {
    ctx.res.type("html").send(templates.graphiql({ title: api.title, assets: `${at}static`, endpoint: JSON.stringify(at), nonce: cspNonce(ctx.res) }));
    return;
  }
  if (ctx.req.method !== "POST") throw notAllowed(ctx.req.method);
  const raw = Buffer.isBuffer(ctx.req.body) ? ctx.req.body : Buffer.alloc(0);
  const type = contentType(ctx.req);
  const body = type === "application/graphql" ? { query: raw.toString("utf8") } : type === "application/json" ? readJson(ctx) : {};
  const op = await operations.read(await requestActor(ctx, "graphql"));
  // The response's own answer: it may be the JSON text PostgreSQL wrote, sent as it is.
  const requester = { ...requesterOf({ version: ctx.version, apiUrl: ctx.apiUrl }, graphqlWriter(ctx)), text: true };
  const answer = await answerGraphql(deps, op, (body ?? {}) as Record<string, unknown>, requester);
  if (answer.body instanceof JsonText) sendJsonText(ctx.res, answer.status, answer.body);
  else ctx.res.status(answer.status).json(answer.body);
}
