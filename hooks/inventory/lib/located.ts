// Nautobot's rule for what has a location (racks, rack groups, devices, power panels, circuit
// terminations): the location is in the object's site (its own, or its top ancestor's), and
// its type permits objects of this kind.
import { jsonValue, Refusal, type HookDb } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

type Row = Record<string, any>;

/** Refuses `row`'s location when it is elsewhere or of a type that may not hold `key` objects (`plural` names them). */
export async function checkLocation(db: HookDb, key: string, plural: string, row: Row): Promise<void> {
  if (!row.location_id) return;
  const found = await db.raw(`
    WITH RECURSIVE up AS (SELECT id, parent_id, site_id, 0 AS n FROM ${tables.dcim.location.table} WHERE id = ?
      UNION ALL SELECT l.id, l.parent_id, l.site_id, up.n + 1 FROM ${tables.dcim.location.table} l JOIN up ON l.id = up.parent_id)
    SELECT loc.name, loc.location_type_id, t.name AS type_name, t.content_types,
      (SELECT site_id FROM up WHERE site_id IS NOT NULL ORDER BY n LIMIT 1) AS base_site_id
    FROM ${tables.dcim.location.table} loc JOIN ${tables.dcim.locationtype.table} t ON t.id = loc.location_type_id WHERE loc.id = ?`, [row.location_id, row.location_id]);
  const loc: Row | undefined = found.rows[0];
  if (!loc) return;
  if (row.site_id !== undefined && loc.base_site_id !== row.site_id) {
    const site: Row | undefined = await db(tables.dcim.site.table).where({ id: row.site_id }).first();
    throw new Refusal({ location: `Location "${loc.name}" does not belong to site "${site?.name ?? ""}".` });
  }
  const types = (jsonValue(loc.content_types) ?? []) as string[];
  if (!types.includes(key)) throw new Refusal({ location: `${plural} may not associate to locations of type "${loc.type_name}".` });
}

/** Whether location `inner` is `outer` or one of its descendants (Nautobot's `outer in inner.ancestors(include_self=True)`). */
export async function locationWithin(db: HookDb, inner: unknown, outer: unknown): Promise<boolean> {
  const found = await db.raw(`WITH RECURSIVE up AS (SELECT id, parent_id FROM ${tables.dcim.location.table} WHERE id = ? UNION ALL
    SELECT l.id, l.parent_id FROM ${tables.dcim.location.table} l JOIN up ON l.id = up.parent_id) SELECT 1 FROM up WHERE id = ?`, [String(inner), String(outer)]);
  return found.rows.length > 0;
}
