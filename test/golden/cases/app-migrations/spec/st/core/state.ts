import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("State", {
  app: "core",
  route: "states",
  display: "{name}",
  ordering: ["name"],
  fields: {
    content_types: field.contentTypes({ feature: "statuses", required: true }),
    name: field.string({ required: true, unique: true, maxLength: 50 }),
    slug: field.string({ unique: true, maxLength: 50, slugFrom: "name" }),
    color: field.string({ maxLength: 6, default: "9e9e9e" }),
  },
  nested: ["name", "slug"],
  rows: {
    key: "slug",
    values: [
      { slug: "active", name: "Active", color: "4caf50" },
      { slug: "planned", name: "Planned", color: "00bcd4" },
      { slug: "broken", name: "Broken's", color: "f44336" },
    ],
  },
});
