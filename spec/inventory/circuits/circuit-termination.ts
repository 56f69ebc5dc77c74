import { model, field, ref, choices } from "../../../generator/dsl/index.js";
import { cableEnd, cableEndFilters, pathEndpoint, traceAction } from "../dcim/cable.js";

export const TermSide = choices("CircuitTerminationSide", [["A", "A"], ["Z", "Z"]]);

export default model("CircuitTermination", {
  app: "circuits",
  route: "circuit-terminations",
  // Nautobot records its changes against this object too (to_objectchange's related_object).
  changeLogRelated: "circuit",
  description: "One end of a circuit: at a site, or in a provider network.",
  display: "[Termination {term_side}: {site.name}|Termination {term_side}: {provider_network.name}]",
  ordering: ["circuit", "term_side"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "circuits/circuit-termination",
  fields: {
    circuit: ref.fk("circuits.Circuit", { relatedName: "terminations", required: true, onDelete: "cascade" }),
    // DRF's own ChoiceField: Nautobot's serializer leaves this model field as it is.
    term_side: field.choice(TermSide, { required: true, plain: true, label: "Termination" }),
    site: ref.fk("dcim.Site", { nullable: true, onDelete: "protect" }),
    location: ref.fk("dcim.Location", { nullable: true, onDelete: "protect" }),
    provider_network: ref.fk("circuits.ProviderNetwork", { nullable: true, onDelete: "protect" }),
    port_speed: field.integer({ nullable: true, min: 0, max: 2147483647, label: "Port speed (Kbps)" }),
    upstream_speed: field.integer({ nullable: true, min: 0, max: 2147483647, label: "Upstream speed (Kbps)", description: "Upstream speed, if different from port speed" }),
    xconnect_id: field.string({ maxLength: 50, label: "Cross-connect ID" }),
    pp_info: field.string({ maxLength: 100, label: "Patch panel/port(s)" }),
    description: field.string({ maxLength: 200 }),
    ...cableEnd(),
    ...pathEndpoint(),
  },
  actions: traceAction,
  uniqueTogether: [["circuit", "term_side"]],
  nested: ["circuit", "term_side", "cable"],
  filters: { q: ["xconnect_id", "pp_info", "description"], ...cableEndFilters(true) },
});
