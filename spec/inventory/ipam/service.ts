import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const ServiceProtocol = choices("ServiceProtocol", [["tcp", "TCP"], ["udp", "UDP"]]);

export default model("Service", {
  app: "ipam",
  route: "services",
  description: "A layer-four service (SSH, HTTP…) on a device or a virtual machine, on one or more ports, optionally tied to IP addresses.",
  // Nautobot's __str__: the protocol's label and the ports as runs (`web (TCP/80, 443)`).
  display: "{name} ({protocol|display}/{ports|ranges})",
  ordering: ["protocol", "ports"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "ipam/service",
  fields: {
    // Exactly one of the two (the hook's rule); a service goes with its device or machine.
    device: ref.fk("dcim.Device", { nullable: true, onDelete: "cascade" }),
    virtual_machine: ref.fk("virtualization.VirtualMachine", { nullable: true, onDelete: "cascade" }),
    name: field.string({ required: true, maxLength: 100 }),
    ports: field.list(field.integer({ min: 1, max: 65535 }), { required: true }),
    // Optional in the serializer, yet the model's full_clean refuses it blank (the hook says so).
    // The nested serializer leaves it to DRF: a bare value there.
    protocol: field.choice(ServiceProtocol, { plainWhenNested: true }),
    ipaddresses: ref.m2m("ipam.IPAddress", { relatedName: "services" }),
    description: field.string({ maxLength: 200 }),
  },
  indexes: [{ fields: ["ports"], using: "gin" }],
  nested: ["name", "protocol", "ports"],
  filters: {
    q: ["name", "description"],
    // One port, matching services that listen on it among others (Nautobot's NumericArrayFilter).
    extra: { port: { field: "ports", lookup: "contains" } },
    exclude: ["ipaddresses", "description"],
  },
});
