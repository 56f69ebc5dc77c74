import { model, field, ref, choices } from "../../../generator/dsl/index.js";
import { cableEnd, cableEndFilters, pathEndpoint, traceAction } from "./cable.js";

export const PowerFeedStatus = choices("PowerFeedStatus", [["offline", "Offline"], ["active", "Active"], ["planned", "Planned"], ["failed", "Failed"]]);
export const PowerFeedType = choices("PowerFeedType", [["primary", "Primary"], ["redundant", "Redundant"]]);
export const PowerFeedSupply = choices("PowerFeedSupply", [["ac", "AC"], ["dc", "DC"]]);
export const PowerFeedPhase = choices("PowerFeedPhase", [["single-phase", "Single phase"], ["three-phase", "Three-phase"]]);

export default model("PowerFeed", {
  app: "dcim",
  route: "power-feeds",
  description: "An electrical circuit delivered from a power panel, cabled to a device's power port.",
  display: "{name}",
  ordering: ["power_panel", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/power-feed",
  fields: {
    power_panel: ref.fk("dcim.PowerPanel", { relatedName: "powerfeeds", required: true, onDelete: "protect" }),
    rack: ref.fk("dcim.Rack", { relatedName: "powerfeed_set", nullable: true, onDelete: "protect" }),
    name: field.string({ required: true, maxLength: 100 }),
    status: field.status({ required: true, defaults: PowerFeedStatus }),
    type: field.choice(PowerFeedType, { default: "primary" }),
    supply: field.choice(PowerFeedSupply, { default: "ac" }),
    phase: field.choice(PowerFeedPhase, { default: "single-phase" }),
    voltage: field.integer({ default: 120, min: -32768, max: 32767 }),
    amperage: field.integer({ default: 20, min: 1, max: 32767 }),
    max_utilization: field.integer({ default: 80, min: 1, max: 100, description: "Maximum permissible draw (percentage)" }),
    comments: field.text(),
    ...cableEnd(),
    ...pathEndpoint(),
    // Kept by the hook from voltage, amperage, utilisation and phase, as Nautobot's save does; not shown.
    available_power: field.integer({ readOnly: true, writeOnly: true, default: 0, min: 0, max: 2147483647 }),
  },
  actions: traceAction,
  uniqueTogether: [["power_panel", "name"]],
  nested: ["name", "cable"],
  filters: {
    q: ["name", "comments"],
    via: { site: "power_panel.site" },
    ...cableEndFilters(true),
  },
});
