// How an answer is rendered: JSON, or DRF's browsable HTML page when the request negotiated it.
import { origin } from "../../http/request.js";
import { sendArrivingJson, sendJsonText } from "../../http/json-text.js";
import { templates } from "../../http/templates.js";
import { ArrivingJsonText, JsonText } from "../../query/json-text.js";
import { csrfToken } from "./browser-session.js";
import { browsablePage } from "./browsable.js";
import type { Ctx } from "./context.js";

/** Answers whose JSON text was made ahead (`renderAhead`), and those sent before it was. */
const madeAhead = new WeakMap<object, JsonText | null>();

/**
 * Makes the JSON text of an answer of objects ahead of its sending, as `send` would write it
 * (Express's `json`, with no replacer or spaces): for an operation's answer, while the
 * operation commits (RunOptions.meanwhile). Not for an answer already sent, nor for a page.
 */
export function renderAhead(ctx: Ctx, body: object): void {
  if (ctx.renderer === "html" || madeAhead.has(body)) return;
  madeAhead.set(body, new JsonText(JSON.stringify(body)));
}

/**
 * Sends `body`; a `JsonText` (an answer PostgreSQL wrote, or one made ahead) passes through as it
 * is, and an `ArrivingJsonText` as it arrives: settles once it is sent.
 */
export function send(ctx: Ctx, statusCode: number, body: unknown): void | Promise<void> {
  if (body instanceof ArrivingJsonText) {
    return ctx.renderer === "html" ? body.whole().then((text) => send(ctx, statusCode, text)) : sendArrivingJson(ctx.res, statusCode, body);
  }
  if (ctx.renderer !== "html") {
    const ahead = typeof body === "object" && body !== null ? madeAhead.get(body) : undefined;
    if (typeof body === "object" && body !== null && ahead === undefined) madeAhead.set(body, null);
    const text = body instanceof JsonText ? body : ahead;
    if (text) sendJsonText(ctx.res, statusCode, text);
    else ctx.res.status(statusCode).json(body);
    return;
  }
  if (body instanceof JsonText) body = JSON.parse(body.text);
  const { api, index, config } = ctx.drf;
  const page = browsablePage({
    index, version: ctx.version, method: ctx.req.method, url: new URL(`${origin(ctx.req, config.publicUrl)}${ctx.req.originalUrl}`),
    status: statusCode, body, view: ctx.view, user: !!ctx.identity,
    allow: (ctx.res.get("Allow") ?? "").split(",").map((x) => x.trim()).filter(Boolean),
  });
  ctx.res.status(statusCode).type("html").send(templates.browsable({
    ...page, title: page.name || api.title, apiTitle: api.title, version: ctx.version, docsUrl: `${api.basePath}docs/`,
    user: ctx.identity?.username ?? "", logoutUrl: `${api.basePath}logout/`,
    loginUrl: `${api.basePath}login/?next=${encodeURIComponent(ctx.req.originalUrl)}`,
    method: ctx.req.method, path: ctx.req.originalUrl, status: statusCode,
    csrfToken: ctx.session ? csrfToken(ctx.session) : "", script: `${api.basePath}docs/static/browsable.js`,
  }));
}
