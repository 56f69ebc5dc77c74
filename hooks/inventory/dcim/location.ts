// Nautobot's Location.clean: a location's type never changes; a location of a top-level type
// has a site and no parent (or, nestable, a parent of its own type); one of a nested type has
// a parent of the parent type (or its own, when nestable) and no site.
import { columns, readRow, Refusal, type MethodQuery, type SaveEvent, subtreeIds } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimLocation, DcimLocationType } from "../../../generated/inventory/rows.js";

const { location: LOCATIONS, locationtype: TYPES } = tables.dcim;

export async function beforeSave({ db, before, after: l, changed }: SaveEvent<DcimLocation>): Promise<void> {
  const type = (await readRow<DcimLocationType>(db, TYPES, l.location_type))!;
  if (before && changed.has("location_type")) {
    const prior = (await readRow<DcimLocationType>(db, TYPES, before.location_type))!;
    throw new Refusal({ location_type: `Changing the type of an existing Location (from ${prior.name} to ${type.name} in this case) is not permitted.` });
  }
  const parent = await readRow<DcimLocation>(db, LOCATIONS, l.parent);
  if (!type.parent) {
    if (parent) {
      if (!type.nestable) throw new Refusal({ parent: `A Location of type ${type.name} must not have a parent Location.` });
      if (parent.location_type !== type.id) throw new Refusal({ parent: `A Location of type ${type.name} may only have a Location of the same type as its parent.` });
      if (l.site) throw new Refusal({ site: "A Location cannot have both a parent Location and an associated Site." });
    } else if (!l.site) {
      throw new Refusal({ site: `A Location of type ${type.name} must have an associated Site.` });
    }
  } else {
    const parentType = (await readRow<DcimLocationType>(db, TYPES, type.parent))!;
    if (l.site) throw new Refusal({ site: `A location of type ${type.name} must not have an associated Site.` });
    if (!parent) throw new Refusal({ parent: `A Location of type ${type.name} must have a parent Location.` });
    if (type.nestable && ![type.id, type.parent].includes(parent.location_type)) {
      throw new Refusal({ parent: `A Location of type ${type.name} can only have a Location of the same type or of type ${parentType.name} as its parent.` });
    }
    if (!type.nestable && parent.location_type !== type.parent) {
      throw new Refusal({ parent: `A Location of type ${type.name} can only have a Location of type ${parentType.name} as its parent.` });
    }
  }
}

/** Nautobot's LocationFilterSet methods. */
export const filters = {
  // The locations named and every location below them.
  subtree: ({ alias, model, ids }: MethodQuery) => `${alias}.id = ANY(${subtreeIds(model, `SELECT x.id FROM ${LOCATIONS.table} x WHERE x.id = ANY(${ids})`)})`,
  // Locations of one of the sites, and their descendants (which have no site of their own).
  base_site: ({ alias, model, ids }: MethodQuery) =>
    `${alias}.id = ANY(${subtreeIds(model, `SELECT x.id FROM ${LOCATIONS.table} x WHERE ${columns(LOCATIONS, "x").site} = ANY(${ids})`)})`,
  // Locations that may hold a child of one of the types: its parent type, or the type itself when nestable.
  child_location_type: ({ alias, ids }: MethodQuery) => {
    const [v, own] = [columns(TYPES, "v"), columns(TYPES, "own")];
    return `EXISTS (SELECT 1 FROM ${TYPES.table} v JOIN ${TYPES.table} own ON own.id = ${columns(LOCATIONS, alias).location_type} ` +
      `WHERE v.id = ANY(${ids}) AND (${v.parent} = own.id OR (v.id = own.id AND ${own.nestable})))`;
  },
  // Locations whose type permits every content type named.
  content_type: ({ alias, values }: MethodQuery) =>
    `EXISTS (SELECT 1 FROM ${TYPES.table} lt WHERE lt.id = ${columns(LOCATIONS, alias).location_type} AND jsonb_exists_all(${columns(TYPES, "lt").content_types}, ${values}))`,
};
