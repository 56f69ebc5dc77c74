// The BGP app's PeerGroup.clean and PeerEndpoint.clean, the part both share: a session is
// sourced from an IP address or from an interface, never both (Nautobot refuses it with a
// plain ValidationError, the `__all__` key).
import { Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import type { NautobotBgpModelsPeerEndpoint, NautobotBgpModelsPeerGroup } from "../../../generated/inventory/rows.js";

export function beforeSave({ after }: SaveEvent<NautobotBgpModelsPeerGroup | NautobotBgpModelsPeerEndpoint>): void {
  if (after.source_ip && after.source_interface) throw new Refusal({ __all__: "Can not set both IP and Update source options" });
}
