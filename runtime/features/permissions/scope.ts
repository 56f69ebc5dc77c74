// Which rows a request's actor may reach, for every read the engine plans and every write that
// first finds its rows (REST lists and details, GraphQL at every level, actions, exports,
// jobs): Nautobot's `restrict(user, action)`. A model EXEMPT_VIEW_PERMISSIONS names is read by
// anyone, signed in or not; otherwise an anonymous request reads nothing, a user holding no
// permission for the action reaches no row, and one holding some reaches the rows meeting any
// of its constraints. Without object permissions only superusers reach the users.
import type { ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import type { Actor, RowCondition } from "../../operations/index.js";
import type { ReadScope } from "../types.js";
import type { Permissions } from "./index.js";

const NONE: RowCondition = { sql: "false", bindings: [] };

/** Whether anyone may view `m`'s rows without a permission (EXEMPT_VIEW_PERMISSIONS). */
export function viewExempt(index: ModelIndex): (m: ModelDescriptor) => boolean {
  const { api } = index;
  const exempt = new Set((api.settings.EXEMPT_VIEW_PERMISSIONS as string[] | undefined) ?? []);
  // Models `["*"]` never exempts (Nautobot's EXEMPT_EXCLUDE_MODELS).
  const neverExempt = new Set([api.auth?.users, api.permissions?.objectPermissions, api.permissions?.groups]);
  return (m) => exempt.has(m.key) || (exempt.has("*") && !neverExempt.has(m.key));
}

/** The scope of `index`'s api, when it has users to restrict. */
export function requestScope(index: ModelIndex, permissions: Permissions | undefined): ReadScope | undefined {
  if (!index.api.auth) return undefined;
  const users = index.model(index.api.auth.users);
  const exemptView = viewExempt(index);
  return {
    narrow(actor: Actor, m: ModelDescriptor, alias: string, action: string): RowCondition | null {
      if (action === "view" && exemptView(m)) return null;
      if (actor.anonymous) return NONE;
      if (!permissions) return m === users && !actor.superuser ? NONE : null;
      const grants = actor.grants;
      if (!grants) return null;
      return permissions.holds(grants, m, action) ? permissions.condition(grants, m, action, alias) : NONE;
    },
  };
}
