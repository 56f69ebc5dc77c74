import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const CircuitStatus = choices("CircuitStatus", [
  ["planned", "Planned"], ["provisioning", "Provisioning"], ["active", "Active"], ["offline", "Offline"],
  ["deprovisioning", "Deprovisioning"], ["decommissioned", "Decommissioned"],
]);

/** A circuit's termination as the circuit shows it (Nautobot's CircuitCircuitTerminationSerializer). */
const TERMINATION = ["site", "location", "provider_network", "connected_endpoint", "port_speed", "upstream_speed", "xconnect_id"];

export default model("Circuit", {
  app: "circuits",
  route: "circuits",
  description: "A communications circuit from a provider, between two terminations.",
  display: "{cid}",
  ordering: ["provider", "cid"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  fields: {
    cid: field.string({ required: true, maxLength: 100, label: "Circuit ID" }),
    provider: ref.fk("circuits.Provider", { required: true, onDelete: "protect" }),
    type: ref.fk("circuits.CircuitType", { required: true, onDelete: "protect" }),
    status: field.status({ required: true, defaults: CircuitStatus }),
    tenant: ref.fk("tenancy.Tenant", { nullable: true, onDelete: "protect" }),
    install_date: field.date({ nullable: true, label: "Date installed" }),
    commit_rate: field.integer({ nullable: true, min: 0, max: 2147483647, label: "Commit rate (Kbps)" }),
    description: field.string({ maxLength: 200 }),
    // Kept by the terminations' hook: the A and Z ends, as Nautobot caches them on the circuit.
    termination_a: ref.fk("circuits.CircuitTermination", { relatedName: "+", nullable: true, readOnly: true, onDelete: "setNull", shape: TERMINATION }),
    termination_z: ref.fk("circuits.CircuitTermination", { relatedName: "+", nullable: true, readOnly: true, onDelete: "setNull", shape: TERMINATION }),
    comments: field.text(),
  },
  uniqueTogether: [["provider", "cid"]],
  nested: ["cid"],
  filters: {
    exclude: ["termination_a", "termination_z"],
    q: ["cid", "description", "comments"],
    via: { tenant_group: "tenant.group" },
  },
});
