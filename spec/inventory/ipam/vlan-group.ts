import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("VLANGroup", {
  app: "ipam",
  route: "vlan-groups",
  verboseName: "VLAN Group",
  description: "VLANs whose ids and names are unique among themselves, optionally at a site or location.",
  display: "{name}",
  ordering: ["site", "name"],
  features: ["customFields", "notes", "changeLogged"],
  hooks: "ipam/vlan-group",
  fields: {
    name: field.string({ required: true, maxLength: 100 }),
    // Unique per site only, as Nautobot 1.x keeps it (groups without a site may share it).
    slug: field.string({ maxLength: 100, slugFrom: "name" }),
    site: ref.fk("dcim.Site", { nullable: true }),
    location: ref.fk("dcim.Location", { nullable: true }),
    description: field.string({ maxLength: 200 }),
    vlan_count: field.count({ of: "ipam.VLAN.group" }),
  },
  uniqueTogether: [["site", "name"], ["site", "slug"]],
  // Embedded in another object the count is absent; the brief form keeps it.
  nested: ["name", "slug"],
  brief: ["name", "slug", "vlan_count"],
  filters: { q: ["name", "slug"], via: { region: "site.region" } },
});
