import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("Cluster", {
  app: "virtualization",
  route: "clusters",
  description: "A cluster of hypervisors that runs virtual machines, optionally at a site or location.",
  display: "{name}",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "virtualization/cluster",
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    type: ref.fk("virtualization.ClusterType", { required: true, onDelete: "protect" }),
    group: ref.fk("virtualization.ClusterGroup", { nullable: true, onDelete: "protect" }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true, onDelete: "protect" }),
    site: ref.fk("dcim.Site", { nullable: true, onDelete: "protect" }),
    location: ref.fk("dcim.Location", { nullable: true, onDelete: "protect" }),
    comments: field.text(),
    device_count: field.count({ of: "dcim.Device.cluster" }),
    virtualmachine_count: field.count({ of: "virtualization.VirtualMachine.cluster" }),
  },
  // Filters take a cluster by id or name, as Nautobot's.
  naturalKey: "name",
  nested: ["name"],
  brief: ["name", "virtualmachine_count"],
  filters: {
    q: ["name", "comments"],
    via: { tenant_group: "tenant.group", region: "site.region" },
    related: {
      devices: { of: "dcim.Device.cluster", key: "name" },
      virtual_machines: { of: "virtualization.VirtualMachine.cluster", key: "name" },
    },
  },
});
