import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("VirtualChassis", {
  app: "dcim",
  route: "virtual-chassis",
  verboseName: "Virtual chassis",
  description: "Devices that share one control plane (a switch stack), led by a master member.",
  display: "{name}",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/virtual-chassis",
  fields: {
    name: field.string({ required: true, maxLength: 64 }),
    domain: field.string({ maxLength: 30 }),
    // A one-to-one link the serializer declares itself: Django's model validation checks it.
    master: ref.fk("dcim.Device", { relatedName: "vc_master_for", oneToOne: true, nullable: true, unique: true, uniqueCheckedBy: "django", onDelete: "protect" }),
    member_count: field.count({ of: "dcim.Device.virtual_chassis" }),
  },
  nested: ["name", "master"],
  brief: ["name", "master", "member_count"],
  filters: { q: ["name", "domain"] },
});
