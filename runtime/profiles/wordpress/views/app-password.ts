// POST /wp/v2/users/me/application-passwords: a new application password for the requester,
// its plain text shown once.
import { invalidParam, missingParams } from "../errors.js";
import { respond, type WpContext } from "../context.js";

export async function appPasswordView(ctx: WpContext): Promise<void> {
  const who = ctx.wp.policy.permission.loggedIn(ctx.who);
  const name = ctx.params.name;
  if (name === undefined) throw missingParams(["name"]);
  if (typeof name !== "string" || !name.trim()) throw invalidParam("name");
  respond(ctx, 201, await ctx.wp.appPasswords.create(who.userId, name.trim()));
}
