import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("PowerPanel", {
  app: "dcim",
  route: "power-panels",
  description: "A distribution point for electrical power (a data centre's remote power panel).",
  display: "{name}",
  ordering: ["site", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/power-panel",
  fields: {
    site: ref.fk("dcim.Site", { relatedName: "powerpanel_set", required: true, onDelete: "protect" }),
    location: ref.fk("dcim.Location", { relatedName: "powerpanels", nullable: true, onDelete: "protect" }),
    rack_group: ref.fk("dcim.RackGroup", { relatedName: "powerpanel_set", nullable: true, onDelete: "protect" }),
    name: field.string({ required: true, maxLength: 100 }),
    powerfeed_count: field.count({ of: "dcim.PowerFeed.power_panel" }),
  },
  uniqueTogether: [["site", "name"]],
  // Embedded in another object the count is absent; the brief form keeps it.
  nested: ["name"],
  brief: ["name", "powerfeed_count"],
  naturalKey: "name",
  filters: {
    q: ["name"],
    via: { region: "site.region" },
    related: { power_feeds: { of: "dcim.PowerFeed.power_panel", key: "name" } },
  },
});
