import { model, field, ref, choices } from "../../../generator/dsl/index.js";

/** The statuses the app gives autonomous systems (its PluginConfig's default_statuses). */
export const AutonomousSystemStatus = choices("AutonomousSystemStatus", [["active", "Active"], ["available", "Available"], ["planned", "Planned"]]);

export default model("AutonomousSystem", {
  app: "nautobot_bgp_models",
  route: "autonomous-systems",
  verboseName: "Autonomous system",
  description: "An autonomous system: a 32-bit number and who provides it.",
  display: "AS {asn}",
  ordering: ["asn"],
  features: ["tags", "customFields", "changeLogged"],
  hooks: "autonomous-system",
  fields: {
    asn: field.integer({ required: true, unique: true, min: 1, max: 4294967295, label: "ASN", description: "32-bit autonomous system number" }),
    description: field.string({ maxLength: 200 }),
    status: field.status({ required: true, defaults: AutonomousSystemStatus }),
    provider: ref.fk("circuits.Provider", { nullable: true, onDelete: "protect", relatedName: "bgp_autonomous_systems" }),
  },
  naturalKey: "asn",
  nested: ["asn"],
  // `q` matches part of the number too (the app's `asn__icontains`), which a plain search of an integer does not.
  filters: { methods: { q: { takes: "string" } } },
});
