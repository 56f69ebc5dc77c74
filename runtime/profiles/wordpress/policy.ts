// The API's policy record, as DRF's settings name them: who the requester is
// (authenticators), what they may do (permission), how archives page (paginator), how an
// answer is written (renderer), what a failure becomes (exceptionHandler) and which form a
// client asked for (negotiator). Built once per API; views read it from their context.
import type { Knex } from "knex";
import type { ApiDescriptor } from "../../descriptor.js";
import type { Identities } from "../../auth/identities.js";
import type { ThrottleLimits } from "../../auth/throttle.js";
import type { WpAuth } from "./auth.js";
import { authenticators, type Authenticator } from "./authenticators.js";
import { rolePermission, type WpPermission } from "./permissions.js";
import { WpPaginator } from "./paginator.js";
import { jsonRenderer, type WpRenderer } from "./renderer.js";
import { exceptionHandler, type WpExceptionHandler } from "./exceptions.js";
import { acceptNegotiator, type WpNegotiator } from "./negotiator.js";

export interface WpPolicy {
  readonly authenticators: readonly Authenticator[];
  readonly permission: WpPermission;
  readonly paginator: WpPaginator;
  readonly renderer: WpRenderer;
  readonly exceptionHandler: WpExceptionHandler;
  readonly negotiator: WpNegotiator;
}

export function wordpressPolicy(api: ApiDescriptor, db: Knex, identities: Identities | undefined, passwords: WpAuth | undefined, limits: ThrottleLimits): WpPolicy {
  return {
    authenticators: authenticators(db, identities, passwords, limits),
    permission: rolePermission,
    paginator: new WpPaginator(api.settings),
    renderer: jsonRenderer,
    exceptionHandler: exceptionHandler(jsonRenderer),
    negotiator: acceptNegotiator,
  };
}
