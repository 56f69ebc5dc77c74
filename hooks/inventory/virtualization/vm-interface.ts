// A VM interface's MAC address is kept as a device interface's, and its VLANs follow the rules
// both kinds share (its parent's site is its cluster's). Nautobot 1.5 checks nothing else of a
// VM interface through the API 1.2/1.3 serializer: not the untagged VLAN's site (VMInterface has
// no clean of its own), and its parent and bridge may be any VM interface (the same-machine rules
// are its forms' alone). That serializer's validate, which the 1.4 one inherits, makes every write
// that leaves the status out active, creates and updates alike, in every version.
import { type StatusField, readRow, type SaveEvent, setDefaultStatus } from "../../../runtime/hooks.js";
import { normalizeMac } from "../lib/mac.js";
import { checkTaggedVlans, checkUntaggedMode } from "../lib/interface-vlans.js";

export { clearTaggedVlans as afterSave } from "../lib/interface-vlans.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { VirtualizationVMInterface, VirtualizationVirtualMachine } from "../../../generated/inventory/rows.js";

export async function beforeSave(event: SaveEvent<VirtualizationVMInterface>): Promise<void> {
  const { db, values, model, before, after } = event;
  normalizeMac(values);
  if (values.status === undefined) {
    // The kind fills a row of columns: the value it puts there is the field's.
    const status = model.fields.find((f): f is StatusField => f.kind === "status" && f.name === "status")!;
    const filled: Record<string, unknown> = {};
    await setDefaultStatus(status, db, model, filled);
    values.status = filled[status.column] as string;
  }
  const site = (await readRow<VirtualizationVirtualMachine>(db, tables.virtualization.virtualmachine, (before ?? after).virtual_machine))?.site ?? null;
  await checkTaggedVlans(event, site, "virtual machine");
  checkUntaggedMode(after);
}
