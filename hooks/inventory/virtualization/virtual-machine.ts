// Nautobot's VirtualMachine rules, in full_clean's order: the role is one for virtual machines
// (the field's limit_choices_to), the local context data (ConfigContextModel.clean), then the
// name's uniqueness in its cluster (validate_unique). The machine shows its cluster's site and
// location; its config context matches by them, its role, platform, cluster (and group),
// tenancy and tags.
import { withLength, columns, duplicate, readRow, Refusal, type MethodQuery, type ReadRow, type SaveEvent } from "../../../runtime/hooks.js";
import { checkLocalContext, configContextSql } from "../lib/context-data.js";
import { macDigits } from "../lib/mac.js";
import { onOwnInterface } from "../lib/addressing.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimDeviceRole, IpamIPAddress, VirtualizationCluster, VirtualizationVirtualMachine } from "../../../generated/inventory/rows.js";

const MACHINES = tables.virtualization.virtualmachine;
const M = columns(MACHINES);

export async function beforeSave({ db, model, id, values, after: vm }: SaveEvent<VirtualizationVirtualMachine>): Promise<void> {
  if (vm.role) {
    const role = await readRow<DcimDeviceRole>(db, tables.dcim.devicerole, vm.role);
    // Django's ForeignKey.validate, showing the id as Python's repr of a UUID.
    if (role && !role.vm_role) throw new Refusal({ role: `device role instance with id UUID('${vm.role}') does not exist.` });
  }
  await checkLocalContext(db, vm);
  const twins = db(MACHINES.table).where({ [M.name]: vm.name, [M.cluster]: vm.cluster }).modify((q) => { if (id !== null) q.whereNot({ id }); });
  if (!vm.tenant) {
    if (await twins.whereNull(M.tenant).first("id")) throw new Refusal({ name: "A virtual machine with this name already exists in the assigned cluster." });
  } else if (await twins.where({ [M.tenant]: vm.tenant }).first("id")) {
    throw duplicate(model, "cluster", "tenant", "name");
  }
  for (const field of ["primary_ip4", "primary_ip6"] as const) {
    const ip = await readRow<IpamIPAddress>(db, tables.ipam.ipaddress, vm[field]);
    if (ip && !(await onOwnInterface(db, "virtualization.vminterface", id, ip))) throw new Refusal({ [field]: `The specified IP address (${withLength(ip.address)}) is not assigned to this VM.` });
  }
  const cluster = await readRow<VirtualizationCluster>(db, tables.virtualization.cluster, vm.cluster);
  values.site = cluster?.site ?? null;
  values.location = cluster?.location ?? null;
}

export const readValues = {
  // The site and location are the cluster's, as kept on the machine.
  config_context: ({ alias, rows }: ReadRow) => {
    const m = columns(MACHINES, alias);
    return configContextSql({
      site: m.site, location: m.location, role: m.role, deviceType: null, platform: m.platform,
      cluster: m.cluster, tenant: m.tenant, id: `${alias}.id`, objectType: "virtualization.virtualmachine",
    }, m.local_context_data, rows);
  },
};

export const filters = {
  // Machines with an interface of one of the addresses, however each is written.
  mac_address: ({ alias, values }: MethodQuery) => {
    const i = columns(tables.virtualization.vminterface, "i");
    return `EXISTS (SELECT 1 FROM ${tables.virtualization.vminterface.table} i WHERE ${i.virtual_machine} = ${alias}.id ` +
      `AND ${macDigits(i.mac_address)} = ANY(SELECT ${macDigits("v")} FROM unnest(${values}) v))`;
  },
};
