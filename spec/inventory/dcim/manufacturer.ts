import { model, field } from "../../../generator/dsl/index.js";

export default model("Manufacturer", {
  app: "dcim",
  route: "manufacturers",
  description: "A maker of devices and platforms.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    description: field.string({ maxLength: 200 }),
    devicetype_count: field.count({ of: "dcim.DeviceType.manufacturer" }),
    platform_count: field.count({ of: "dcim.Platform.manufacturer" }),
  },
  // Embedded in another object the counts are absent (DRF drops an annotation the related
  // instance lacks); the brief form keeps the device type count, as Nautobot's nested serializer.
  nested: ["name", "slug"],
  brief: ["name", "slug", "devicetype_count"],
  filters: {
    q: ["name", "slug"],
    related: {
      device_types: { of: "dcim.DeviceType.manufacturer", key: "slug" },
      platforms: { of: "dcim.Platform.manufacturer", key: "slug" },
    },
  },
});
