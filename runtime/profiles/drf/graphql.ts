// GraphQL as Nautobot's GraphQLDRFAPIView serves it: POST a JSON body (`query`, `variables`,
// `operationName`) or an `application/graphql` one, authenticated as any API request; anyone
// may ask, and the request's operation reads each model's rows the requester may view (the
// engine's scope: none for a model they may not, every one where EXEMPT_VIEW_PERMISSIONS says
// so). Mutations write as REST writes (graphql-writes.ts). A refused query is a 400 with
// `errors`; a bad filter argument fails its root field with the filter set's errors as
// Nautobot words them (the Python dict). GET from a browser gives GraphiQL.
import express, { type Router } from "express";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ModelIndex } from "../../models.js";
import type { Operation } from "../../operations/index.js";
import { graphqlService, type GraphqlAnswer, type GraphqlRequest, type Requester, type Writer } from "../../graphql/index.js";
import { pyRepr } from "../../text/python.js";
import { wordErrors } from "./wording.js";

export interface GraphqlDeps {
  index: ModelIndex;
  /** The models of the apps PLUGINS does not enable: the schema leaves them out. */
  hidden: ReadonlySet<string>;
}

/** How this API words a GraphQL request's filter errors, at the request's version and URL; with `writer`, how its mutations write. */
export function requesterOf(at?: { version: string; apiUrl: string }, writer?: Writer): Requester {
  return { ...at, word: (errors) => pyRepr(wordErrors(errors)), ...(writer ? { writer } : {}) };
}

/**
 * GraphiQL's files, served from the installed packages (no CDN): its prebuilt bundle and the
 * React builds it runs on, below `<base>graphql/static/`; gives that path below the API.
 */
export function serveGraphiqlAssets(router: Router, route: string): string {
  const require = createRequire(import.meta.url);
  const dir = (pkg: string) => dirname(require.resolve(`${pkg}/package.json`));
  const at = `/${route}static`;
  router.use(`${at}/graphiql`, express.static(dir("graphiql"), { index: false }));
  router.use(`${at}/react`, express.static(join(dir("react"), "umd"), { index: false }));
  router.use(`${at}/react-dom`, express.static(join(dir("react-dom"), "umd"), { index: false }));
  return at.slice(1);
}

/** Answers one GraphQL request body, as `op`'s reads. */
export function answerGraphql(deps: GraphqlDeps, op: Operation, body: GraphqlRequest, requester: Requester): Promise<GraphqlAnswer> {
  return graphqlService(deps.index, deps.hidden).run(op, body, requester);
}
