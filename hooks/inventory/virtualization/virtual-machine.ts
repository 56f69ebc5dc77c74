// Nautobot's VirtualMachine rules, in full_clean's order: the role is one for virtual machines
// (the field's limit_choices_to), the local context data (ConfigContextModel.clean), then the
// name's uniqueness in its cluster (validate_unique). The machine shows its cluster's site and
// location; its config context matches by them, its role, platform, cluster (and group),
// tenancy and tags.
import { withLength } from "../../../runtime/text/addresses.js";
import { Refusal, type MethodQuery, type SaveEvent } from "../../../runtime/hooks.js";
import { checkLocalContext, configContextSql } from "../lib/context-data.js";
import { macDigits } from "../lib/mac.js";
import { onOwnInterface } from "../lib/addressing.js";
import { tables } from "../../../generated/inventory/tables.js";

type Row = Record<string, any>;

export async function beforeSave({ db, id, values, before }: SaveEvent): Promise<void> {
  const current: Row = before ?? {};
  const vm: Row = { ...current, ...values };
  if (vm.role_id) {
    const role: Row | undefined = await db(tables.dcim.devicerole.table).where({ id: vm.role_id }).first();
    // Django's ForeignKey.validate, showing the id as Python's repr of a UUID.
    if (role && !role.vm_role) throw new Refusal({ role: `device role instance with id UUID('${vm.role_id}') does not exist.` });
  }
  await checkLocalContext(db, current, values);
  const twins = db(tables.virtualization.virtualmachine.table).where({ name: vm.name, cluster_id: vm.cluster_id }).modify((q) => { if (id !== null) q.whereNot({ id }); });
  if (!vm.tenant_id) {
    if (await twins.whereNull("tenant_id").first()) throw new Refusal({ name: "A virtual machine with this name already exists in the assigned cluster." });
  } else if (await twins.where({ tenant_id: vm.tenant_id }).first()) {
    throw new Refusal({ __all__: "Virtual machine with this Cluster, Tenant and Name already exists." });
  }
  for (const field of ["primary_ip4", "primary_ip6"]) {
    const ip: Row | undefined = vm[`${field}_id`] ? await db(tables.ipam.ipaddress.table).where({ id: vm[`${field}_id`] }).first() : undefined;
    if (ip && !(await onOwnInterface(db, "virtualization.vminterface", id, ip))) throw new Refusal({ [field]: `The specified IP address (${withLength(ip.address)}) is not assigned to this VM.` });
  }
  const cluster: Row | undefined = await db(tables.virtualization.cluster.table).where({ id: vm.cluster_id }).first();
  values.site_id = cluster?.site_id ?? null;
  values.location_id = cluster?.location_id ?? null;
}

export const readValues = {
  // The site and location are the cluster's, as kept on the machine.
  config_context: ({ alias }: { alias: string }) => configContextSql({
    site: `${alias}.site_id`, location: `${alias}.location_id`, role: `${alias}.role_id`, deviceType: null, platform: `${alias}.platform_id`,
    cluster: `${alias}.cluster_id`, tenant: `${alias}.tenant_id`, id: `${alias}.id`, objectType: "virtualization.virtualmachine",
  }, `${alias}.local_context_data`),
};

export const filters = {
  // Machines with an interface of one of the addresses, however each is written.
  mac_address: ({ alias, values }: MethodQuery) =>
    `EXISTS (SELECT 1 FROM ${tables.virtualization.vminterface.table} i WHERE i.virtual_machine_id = ${alias}.id AND ${macDigits("i.mac_address")} = ANY(SELECT ${macDigits("v")} FROM unnest(${values}) v))`,
};
