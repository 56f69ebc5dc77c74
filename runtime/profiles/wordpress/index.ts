// The WordPress-style profile: serves an API descriptor the way the WordPress REST API and
// The Events Calendar serve theirs. Mounted at the WordPress API root: the REST index at
// `/`, the API's namespace below it, application passwords at `/wp/v2/users/me/…`. A request
// is read once (request.ts), dispatched from the generated route table (dispatch.ts) to a view
// (views/), which works from its request context (context.ts) under the API's policy record
// (policy.ts): archives through the archive planner and the paginator, writes through the
// writer, every read and write through the engine's store, answers through the shaper; every
// failure is a `{code, message, data}` error. Models are known only through their descriptors.
import express, { type Request, type Response } from "express";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { ApiDescriptor } from "../../descriptor.js";
import type { Config } from "../../config.js";
import type { Fixture } from "../../fixtures.js";
import type { WriteOperation } from "../../operations/index.js";
import { origin } from "../../http/request.js";
import { noRoute } from "./errors.js";
import { WpAuth, type Requester } from "./auth.js";
import { Catalog } from "./records.js";
import { Writer } from "./writes.js";
import { Engine } from "../../engine.js";
import type { Mounted, ProfileCommand } from "../index.js";
import { servedApi, type WpDeps } from "./context.js";
import { WpDispatcher } from "./dispatch.js";
import { requestHandler } from "./request.js";
import { wordpressFastRoutes } from "./fast-routes.js";
import { chargeUnread } from "../../http/rate-limits.js";

export type { WpDeps } from "./context.js";

export function wordpressProfile(deps: WpDeps): Mounted {
  const wp = servedApi(deps);
  const dispatcher = new WpDispatcher(wp);
  const router = express.Router({ strict: false, caseSensitive: true });
  const statics = `${wp.ns}/doc/static`;
  // Swagger UI's own files, for the page `doc` serves a browser.
  router.use(`/${statics}`, express.static(dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json")), { index: false }));
  const readBody = express.raw({ type: () => true, limit: deps.config.bodyLimit });
  const unread = async (err: unknown, req: Request, res: Response, _next: express.NextFunction) =>
    wp.policy.exceptionHandler(res, await chargeUnread(wp.limits, req, res, err), {});
  router.use(readBody);
  router.use(requestHandler(wp, dispatcher));
  router.use(unread);
  const fast = wordpressFastRoutes({ dispatcher, statics, readBody, handler: requestHandler(wp, dispatcher, true), unread, noRoute: wordpressNoRoute(deps.config) });
  return { router, fast };
}

/**
 * What WordPress answers for a path under the REST root that no route matches: 404
 * `rest_no_route`, with the discovery link every REST response carries. Mounted after every
 * API of the profile, so APIs sharing the root each get their chance first.
 */
export function wordpressNoRoute(config: Config): express.RequestHandler {
  return (req, res) => {
    res.set("Link", `<${origin(req, config.publicUrl)}${config.wpApiRoot}/>; rel="https://api.w.org/"`);
    res.status(404).json(noRoute().body());
  };
}

/** Loads fixtures through the same writer and write features as the API, as an editor, in the caller's operation. */
export async function loadWordpressFixtures(op: WriteOperation, api: ApiDescriptor, fixtures: Fixture[], userId?: string): Promise<number> {
  const { index, store, operations } = new Engine(api, op.trx);
  const cat = new Catalog(api, index);
  const writer = new Writer(cat, store, String(api.settings.timezone ?? "UTC"), async () => true);
  const who: Requester = { userId: userId ?? "", username: "fixtures", role: "editor" };
  await operations.savepoint(op, async (sp) => {
    for (const f of fixtures) await writer.create(sp, cat.model(f.model), f.data, who);
  });
  return fixtures.length;
}

/** `create-app-password --username U [--name N]`: a new application password for a user of the API that keeps them. */
export const createAppPassword: ProfileCommand = async ({ op, apis, identities, opts }) => {
  const db = op.trx;
  if (!opts.username) throw new Error("create-app-password needs --username");
  const owner = apis.find((a) => a.appPasswords);
  if (!owner) throw new Error("no API declares appPasswords");
  const auth = new WpAuth(db, identities, owner.models.find((m) => m.key === owner.appPasswords)!);
  const userId = await auth.userId(opts.username);
  if (!userId) throw new Error(`no user ${opts.username}`);
  const created = await auth.create(userId, opts.name ?? "cli");
  return `application password for ${opts.username} (${created.name}): ${created.password}`;
};
