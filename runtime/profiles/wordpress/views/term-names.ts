// A term's name is unique under its parent, as WordPress's term_exists check makes it.
import type { Knex } from "knex";
import type { ModelDescriptor } from "../../../descriptor.js";
import { WpError } from "../errors.js";
import { positiveInt, type Params } from "../params.js";
import type { Catalog, Row } from "../records.js";
import { lockTermName } from "../write-transaction.js";

/**
 * 400 term_exists when another term under the same parent (the given one, else the current)
 * has the name; holds the name's lock until the transaction ends.
 */
export async function termNameFree(cat: Catalog, trx: Knex, m: ModelDescriptor, params: Params, current?: Row): Promise<void> {
  if (typeof params.name !== "string") return;
  await lockTermName(trx, m, params.name);
  const q = trx(m.table).whereRaw("lower(name) = lower(?)", [params.name.trim()]);
  if (current) q.whereNot("id", current.id);
  if (cat.field(m, "parent")) {
    const parent = params.parent === undefined && current ? current[cat.col(m, "parent")] : positiveInt(params.parent);
    if (parent) q.where(cat.col(m, "parent"), parent); else q.whereNull(cat.col(m, "parent"));
  }
  const existing = await q.first();
  if (existing) throw new WpError(400, "term_exists", "A term with the name provided already exists with this parent.", { term_id: existing.id });
}
