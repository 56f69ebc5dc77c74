import { model, field } from "../../../generator/dsl/index.js";

// Colours and descriptions of the default statuses, as Nautobot's extras/management COLOR_MAP
// and DESCRIPTION_MAP; which models each applies to comes from the status fields' defaults.
const GREEN = "4caf50", GREY = "9e9e9e", AMBER = "ffc107", RED = "f44336", CYAN = "00bcd4", BLUE = "2196f3";

export default model("Status", {
  app: "extras",
  route: "statuses",
  verboseName: "status",
  description: "A status that objects of some models may have (Nautobot's custom status choices).",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    // Nautobot 1.5's StatusSerializer shows these four (and no description).
    content_types: field.contentTypes({ feature: "statuses", required: true, label: "Content type(s)", description: "The content type(s) to which this status applies." }),
    name: field.string({ required: true, unique: true, maxLength: 50 }),
    slug: field.string({ unique: true, maxLength: 50, slugFrom: "name" }),
    color: field.string({ maxLength: 6, default: GREY, format: "color", blank: false }),
    description: field.string({ maxLength: 200, readOnly: true, writeOnly: true }),
  },
  nested: ["name", "slug"],
  filters: { q: ["name", "slug", "content_types"] },
  rows: {
    key: "slug",
    values: [
      { slug: "active", name: "Active", color: GREEN, description: "Unit is active" },
      { slug: "available", name: "Available", color: GREEN, description: "Unit is available" },
      { slug: "connected", name: "Connected", color: GREEN, description: "Cable is connected" },
      { slug: "container", name: "Container", color: GREY, description: "Network contains children" },
      { slug: "dhcp", name: "DHCP", color: GREEN, description: "Dynamically assigned IPv4/IPv6 address" },
      { slug: "decommissioned", name: "Decommissioned", color: GREY, description: "Circuit has been decommissioned" },
      { slug: "decommissioning", name: "Decommissioning", color: AMBER, description: "Unit is being decommissioned" },
      { slug: "deprecated", name: "Deprecated", color: RED, description: "Unit has been deprecated" },
      { slug: "deprovisioning", name: "Deprovisioning", color: AMBER, description: "Circuit is being deprovisioned" },
      { slug: "failed", name: "Failed", color: RED, description: "Unit has failed" },
      { slug: "inventory", name: "Inventory", color: GREY, description: "Device is in inventory" },
      { slug: "maintenance", name: "Maintenance", color: GREY, description: "Unit is under maintenance" },
      { slug: "offline", name: "Offline", color: AMBER, description: "Unit is offline" },
      { slug: "planned", name: "Planned", color: CYAN, description: "Unit has been planned" },
      { slug: "provisioning", name: "Provisioning", color: BLUE, description: "Circuit is being provisioned" },
      { slug: "reserved", name: "Reserved", color: CYAN, description: "Unit is reserved" },
      { slug: "retired", name: "Retired", color: RED, description: "Site or Location has been retired" },
      { slug: "slaac", name: "SLAAC", color: GREEN, description: "Dynamically assigned IPv6 address" },
      { slug: "staged", name: "Staged", color: BLUE, description: "Unit has been staged" },
      { slug: "staging", name: "Staging", color: BLUE, description: "Site or Location is in the process of being staged" },
    ],
  },
});
