import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("RackReservation", {
  app: "dcim",
  route: "rack-reservations",
  description: "Units of a rack set aside for someone.",
  display: "Reservation for rack {rack.name}",
  ordering: ["created"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/rack-reservation",
  fields: {
    rack: ref.fk("dcim.Rack", { relatedName: "reservations", required: true, onDelete: "cascade" }),
    // Unit numbers, checked against the rack by the hook.
    units: field.json({ required: true, schema: { type: "array", items: { type: "integer", minimum: 0, maximum: 32767 }, minItems: 1 } }),
    user: ref.fk("users.User", { required: true, onDelete: "protect" }),
    tenant: ref.fk("tenancy.Tenant", { relatedName: "rackreservations", nullable: true, onDelete: "protect" }),
    description: field.string({ required: true, maxLength: 200 }),
  },
  nested: ["user", "units"],
  filters: { q: ["description"], via: { site: "rack.site", tenant_group: "tenant.group" } },
});
