// The BGP app's AddressFamily.validate_unique: one address family per routing instance and
// VRF, the global table (no VRF) included, which a unique constraint over a nullable column
// would let through. The routing instance's row is locked first, so two creates at once
// cannot both pass.
import { columns, readRow, Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { NautobotBgpModelsAddressFamily, NautobotBgpModelsBGPRoutingInstance } from "../../../generated/inventory/rows.js";

const T = tables.nautobot_bgp_models;

export async function beforeSave({ db, id, after }: SaveEvent<NautobotBgpModelsAddressFamily>): Promise<void> {
  const instance = await readRow<NautobotBgpModelsBGPRoutingInstance>(db, T.bgproutinginstance, after.routing_instance, true);
  if (!instance) return;
  const c = columns(T.addressfamily);
  const same = await db(T.addressfamily.table)
    .where({ [c.routing_instance]: instance.id, [c.afi_safi]: after.afi_safi })
    .modify((q) => {
      if (after.vrf) q.where({ [c.vrf]: after.vrf });
      else q.whereNull(c.vrf);
      if (id !== null) q.whereNot({ id });
    })
    .first("id");
  if (same) throw new Refusal({ __all__: "Duplicate Address Family" });
}
