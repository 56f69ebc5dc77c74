// GraphQL as Nautobot's GraphQLDRFAPIView serves it: POST a JSON body (`query`, `variables`,
// `operationName`) or an `application/graphql` one, authenticated as any API request; anyone
// may ask, and each model's rows are those the requester may view (none for a model they may
// not, every one where EXEMPT_VIEW_PERMISSIONS says so). A refused query is a 400 with
// `errors`; a bad filter argument fails its root field with the filter set's errors as
// Nautobot words them (the Python dict). GET from a browser gives GraphiQL.
import express, { type Router } from "express";
import type { Knex } from "knex";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import type { Grants, Permissions } from "../../features/index.js";
import type { Identity } from "../../auth/identities.js";
import { graphqlService, type GraphqlAnswer, type GraphqlRequest, type Requester } from "../../graphql/index.js";
import { pyRepr } from "../../text/python.js";
import { wordErrors } from "./wording.js";

const NONE = { sql: "false", bindings: [] };

export interface GraphqlDeps {
  db: Knex;
  index: ModelIndex;
  sdl: string;
  permissions?: Permissions;
  exemptView(m: ModelDescriptor): boolean;
  userModel?: ModelDescriptor;
}

/** The requester's view of every model, as the REST lists apply it. */
export function requesterOf(deps: GraphqlDeps, identity: Identity | null, grants: Grants | undefined, at?: { version: string; apiUrl: string }): Requester {
  return {
    ...at,
    permitted(m, alias) {
      if (deps.exemptView(m)) return null;
      if (!identity) return NONE;
      if (!deps.permissions || !grants) return m === deps.userModel && !identity.isSuperuser ? NONE : null;
      if (!deps.permissions.holds(grants, m, "view")) return NONE;
      return deps.permissions.condition(grants, m, "view", alias);
    },
    word: (errors) => pyRepr(wordErrors(errors)),
  };
}

/**
 * GraphiQL's files, served from the installed packages (no CDN): its prebuilt bundle and the
 * React builds it runs on, below `<base>graphql/static/`.
 */
export function serveGraphiqlAssets(router: Router, route: string): void {
  const require = createRequire(import.meta.url);
  const dir = (pkg: string) => dirname(require.resolve(`${pkg}/package.json`));
  const at = `/${route}static`;
  router.use(`${at}/graphiql`, express.static(dir("graphiql"), { index: false }));
  router.use(`${at}/react`, express.static(join(dir("react"), "umd"), { index: false }));
  router.use(`${at}/react-dom`, express.static(join(dir("react-dom"), "umd"), { index: false }));
}

/** Answers one GraphQL request body. */
export function answerGraphql(deps: GraphqlDeps, body: GraphqlRequest, requester: Requester): Promise<GraphqlAnswer> {
  return graphqlService(deps.index, deps.sdl).run(deps.db, body, requester);
}
