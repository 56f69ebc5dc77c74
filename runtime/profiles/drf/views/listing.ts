// A model's further list route (`dcim/console-connections/`): the rows whose column is set, with its own few filters; as CSV, as any list.
import type { Knex } from "knex";
import { ValidationError } from "../../../errors.js";
import type { Ctx } from "../context.js";
import { sendCsv } from "../csv-export.js";
import { readOpts, reading, RESERVED } from "../request.js";
import { only } from "./allow.js";

export function listing(ctx: Ctx): Promise<void> | void {
  const { index, filters, strict, store, policy } = ctx.drf;
  const { model: m, column, filters: only_ } = index.listings.get(ctx.match.route.path.slice(0, -1))!;
  return only(ctx, ["GET"], async () => {
    await policy.permission.authorize(ctx, m);
    const op = await reading(ctx, m, "list");
    const { errors, plan } = filters.compile(m, ctx.params, { strict, reserved: RESERVED, only: only_ });
    if (Object.keys(errors).length) throw new ValidationError((await store.filterErrors(op, plan, errors))!);
    const where = { ...plan, apply: (qb: Knex.QueryBuilder) => { plan.apply(qb); qb.whereNotNull(`t0.${column}`); } };
    if (ctx.renderer === "csv") return sendCsv(ctx, m, op, where);
    const at = policy.paginator.params(ctx);
    const { count, results } = await store.list(op, m, where, at, readOpts(ctx));
    policy.renderer(ctx, 200, policy.paginator.page(ctx, at, count, results));
  });
}
