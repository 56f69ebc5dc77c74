// Nautobot's LocationType.clean: names of the models locations will replace are reserved; a
// type whose locations nest cannot stop being nestable, nor move in the tree while used.
import { columns, Refusal, type MethodQuery, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimLocationType } from "../../../generated/inventory/rows.js";

const LOCATIONS = tables.dcim.location;

const RESERVED = new Set(["region", "regions", "site", "sites", "rackgroup", "rackgroups", "rack group", "rack groups"]);

export async function beforeSave({ db, id, before, after: t, changed }: SaveEvent<DcimLocationType>): Promise<void> {
  if (before?.nestable && !t.nestable) {
    const [l, p] = [columns(LOCATIONS, "l"), columns(LOCATIONS, "p")];
    const nested = await db(`${LOCATIONS.table} as l`).join(`${LOCATIONS.table} as p`, "p.id", l.parent).where({ [l.location_type]: id, [p.location_type]: id }).first("l.id");
    if (nested) throw new Refusal({ nestable: "There are existing nested Locations of this type, so changing this Location Type to be non-nestable is not permitted." });
  }
  if (RESERVED.has(String(t.name).toLowerCase())) throw new Refusal({ name: "This name is reserved for future use." });
  if (before && changed.has("parent") && (await db(LOCATIONS.table).where({ [LOCATIONS.columns.location_type]: id }).first("id"))) {
    throw new Refusal({ parent: "This LocationType currently has Locations using it, therefore its parent cannot be changed at this time." });
  }
}

/** Nautobot's content_types filter: types permitting every content type named. */
export const filters = {
  content_types: ({ alias, values }: MethodQuery) => `jsonb_exists_all(${columns(tables.dcim.locationtype, alias).content_types}, ${values})`,
};
