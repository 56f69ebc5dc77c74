// Nautobot's Aggregate.clean(): no /0, and aggregates never overlap (neither covered by
// another, nor covering one).
import { Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { IpamAggregate } from "../../../generated/inventory/rows.js";

const AGGREGATES = tables.ipam.aggregate;
const PREFIX = AGGREGATES.columns.prefix;

export async function beforeSave({ db, id, values }: SaveEvent<IpamAggregate>): Promise<void> {
  const prefix = values.prefix;
  if (typeof prefix !== "string") return;
  if (prefix.endsWith("/0")) throw new Refusal({ prefix: "Cannot create aggregate with /0 mask." });
  const other = (op: string) => db(AGGREGATES.table).whereRaw(`${PREFIX} ${op} ?::cidr`, [prefix])
    .modify((q) => { if (id !== null) q.whereNot({ id }); })
    .orderBy(PREFIX).first(db.raw(`${PREFIX}::text AS prefix`));
  const covering = await other(">>=");
  if (covering) throw new Refusal({ prefix: `Aggregates cannot overlap. ${prefix} is already covered by an existing aggregate (${covering.prefix}).` });
  const covered = await other("<<");
  if (covered) throw new Refusal({ prefix: `Aggregates cannot overlap. ${prefix} covers an existing aggregate (${covered.prefix}).` });
}
