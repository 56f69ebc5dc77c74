import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const RedundancyGroupStatus = choices("DeviceRedundancyGroupStatus", [
  ["planned", "Planned"], ["staging", "Staging"], ["active", "Active"], ["decommissioning", "Decommissioning"], ["retired", "Retired"],
]);

export const FailoverStrategy = choices("FailoverStrategy", [["active-active", "Active/Active"], ["active-passive", "Active/Passive"]]);

export default model("DeviceRedundancyGroup", {
  app: "dcim",
  route: "device-redundancy-groups",
  description: "Devices that stand in for one another (a high-availability pair or cluster).",
  display: "{name}",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    status: field.status({ required: true, defaults: RedundancyGroupStatus }),
    description: field.string({ maxLength: 200 }),
    failover_strategy: field.choice(FailoverStrategy, { blank: true, label: "Failover strategy" }),
    secrets_group: ref.fk("extras.SecretsGroup", { relatedName: "deviceredundancygroup_set", nullable: true, onDelete: "setNull" }),
    comments: field.text(),
  },
  nested: ["name", "slug"],
  naturalKey: "slug",
  filters: { q: ["name", "comments"], exclude: ["description", "comments"] },
});
