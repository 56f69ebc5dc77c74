// Nautobot's rule for what has a location (racks, rack groups, devices, power panels, circuit
// terminations, VLANs, prefixes): the location is in the object's site (its own, or its top
// ancestor's), and its type permits objects of this kind.
import { columns, readRow, Refusal, type HookDb } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimSite } from "../../../generated/inventory/rows.js";

const { location: LOCATIONS, locationtype: TYPES } = tables.dcim;
const L = columns(LOCATIONS);

/** An object as the rule sees it: its location, and its site (undefined, not null: not held to one). */
export interface Placed {
  location?: string | null;
  site?: string | null;
}

/**
 * Refuses the first of `rows` whose location is elsewhere or of a type that may not hold `key`
 * objects (`plural` names them). One statement reads every location named, its type and its
 * base site, however many rows there are.
 */
export async function checkLocations(db: HookDb, key: string, plural: string, rows: ReadonlyArray<Placed>): Promise<void> {
  const named = [...new Set(rows.flatMap((r) => (r.location ? [r.location] : [])))];
  if (!named.length) return;
  const [l, at, t] = [columns(LOCATIONS, "l"), columns(LOCATIONS, "loc"), columns(TYPES, "t")];
  const found = await db.raw(`
    WITH RECURSIVE up AS (SELECT id AS start, id, ${L.parent}, ${L.site}, 0 AS n FROM ${LOCATIONS.table} WHERE id = ANY(?::uuid[])
      UNION ALL SELECT up.start, l.id, ${l.parent}, ${l.site}, up.n + 1 FROM ${LOCATIONS.table} l JOIN up ON l.id = up.${L.parent})
    SELECT loc.id, ${at.name} AS name, ${t.name} AS type_name, ${t.content_types} AS content_types,
      (SELECT up.${L.site} FROM up WHERE up.start = loc.id AND up.${L.site} IS NOT NULL ORDER BY n LIMIT 1) AS base_site
    FROM ${LOCATIONS.table} loc JOIN ${TYPES.table} t ON t.id = ${at.location_type} WHERE loc.id = ANY(?::uuid[])`, [named, named]);
  type Found = { id: string; name: string; type_name: string; content_types: string[] | null; base_site: string | null };
  const byId = new Map((found.rows as Found[]).map((loc) => [loc.id, loc]));
  for (const row of rows) {
    const loc = row.location ? byId.get(row.location) : undefined;
    if (!loc) continue;
    if (row.site !== undefined && loc.base_site !== row.site) {
      const site = await readRow<DcimSite>(db, tables.dcim.site, row.site);
      throw new Refusal({ location: `Location "${loc.name}" does not belong to site "${site?.name ?? ""}".` });
    }
    if (!(loc.content_types ?? []).includes(key)) throw new Refusal({ location: `${plural} may not associate to locations of type "${loc.type_name}".` });
  }
}

/** Whether location `inner` is `outer` or one of its descendants (Nautobot's `outer in inner.ancestors(include_self=True)`). */
export async function locationWithin(db: HookDb, inner: unknown, outer: unknown): Promise<boolean> {
  const found = await db.raw(`WITH RECURSIVE up AS (SELECT id, ${L.parent} FROM ${LOCATIONS.table} WHERE id = ? UNION ALL
    SELECT l.id, l.${L.parent} FROM ${LOCATIONS.table} l JOIN up ON l.id = up.${L.parent}) SELECT 1 FROM up WHERE id = ?`, [String(inner), String(outer)]);
  return found.rows.length > 0;
}
