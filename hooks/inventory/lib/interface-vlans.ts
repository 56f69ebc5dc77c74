// The VLAN rules device and VM interfaces share in Nautobot 1.5: InterfaceCommonSerializer's
// checks of tagged VLANs, BaseInterface.clean's mode for an untagged VLAN, and BaseInterface.save
// keeping tagged VLANs on tagged interfaces only. Sites alone decide; 1.5 ignores locations here.
import { columns, fields, Refusal, type MethodQuery, type SaveEvent, type SavedEvent, type M2mField, type ModelDescriptor } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { IpamVLAN } from "../../../generated/inventory/rows.js";
import { namesOf } from "./tables.js";

/** What device and VM interfaces both have, as their rows hold it. */
interface VlanFields { mode: string; untagged_vlan: string | null }

/** A VLAN as Nautobot's str() shows it in messages. */
export const vlanName = (vlan: Pick<IpamVLAN, "name" | "vid">): string => `${vlan.name} (${vlan.vid})`;

/** The columns of the interface model `model` (a device's or a virtual machine's: both have these fields). */
const interfaceColumns = (model: ModelDescriptor) => columns(namesOf(model.key)) as { mode: string; untagged_vlan: string };

function taggedLinks(model: ModelDescriptor): M2mField["through"] {
  return (model.fields.find((f) => f.name === "tagged_vlans") as M2mField).through;
}

/**
 * What the serializer checks before the model's own rules: each tagged VLAN is global or of
 * `site`, the parent's site as the interface had it before this write (Nautobot reads the
 * instance's parent); tagged VLANs need tagged mode; and an interface that keeps tagged VLANs
 * leaves that mode only when the same write clears them.
 */
export async function checkTaggedVlans<R extends VlanFields>(
  { db, model, id, after, links }: SaveEvent<R>, site: string | null, parent: "device" | "virtual machine",
): Promise<void> {
  const tagged = links.tagged_vlans;
  if (tagged?.length) {
    const vlans: Array<Pick<IpamVLAN, "id" | "name" | "vid" | "site">> = await db(tables.ipam.vlan.table).whereIn("id", tagged)
      .select(fields(tables.ipam.vlan, ["id", "name", "vid", "site"]));
    const byId = new Map(vlans.map((v) => [String(v.id), v]));
    const foreign = tagged.map((t) => byId.get(String(t))!).find((v) => v.site !== null && v.site !== site);
    if (foreign) {
      throw new Refusal({ tagged_vlans: `VLAN ${vlanName(foreign)} must belong to the same site as the interface's parent ${parent}, or it must be global.` });
    }
  }
  const { mode } = after;
  if (mode === "tagged") return;
  if (tagged?.length) throw new Refusal({ tagged_vlans: "Mode must be set to tagged when specifying tagged_vlans" });
  if (tagged === undefined && id !== null) {
    const through = taggedLinks(model);
    if (await db(through.table).where(through.source, id).first()) throw new Refusal({ tagged_vlans: `Clear tagged_vlans to set mode to ${mode ?? ""}` });
  }
}

/** BaseInterface.clean: an untagged VLAN needs a mode. */
export function checkUntaggedMode(row: Partial<VlanFields>): void {
  if (!row.mode && row.untagged_vlan) throw new Refusal({ untagged_vlan: "Mode must be set when specifying untagged_vlan" });
}

/**
 * BaseInterface.save: an interface out of tagged mode keeps no tagged VLANs. The checks above
 * already refuse a write that would leave any, so this holds the rule for every path, not only theirs.
 */
export async function clearTaggedVlans({ db, model, id }: SavedEvent): Promise<void> {
  const through = taggedLinks(model);
  await db(through.table).where(through.source, id)
    .whereNotExists((q) => q.select(db.raw("1")).from(model.table).where({ id, [interfaceColumns(model).mode]: "tagged" })).del();
}

/** The interface aliased `alias` has one of the VLANs `vlans` (a query of ids) untagged or tagged. */
export function carries({ alias, model }: MethodQuery, vlans: string): string {
  const through = taggedLinks(model);
  return `(${alias}.${interfaceColumns(model).untagged_vlan} IN (${vlans}) OR EXISTS (SELECT 1 FROM ${through.table} j ` +
    `WHERE j.${through.source} = ${alias}.id AND j.${through.target} IN (${vlans})))`;
}
