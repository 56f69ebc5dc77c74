import { model, field } from "../../../../../../../generator/dsl/index.js";

// No contentTypes field of the statuses scope, rows keyed by a field that is not unique, a row
// naming no field, a repeated key.
export default model("State", {
  app: "core",
  route: "states",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 50 }),
    slug: field.string({ unique: true, maxLength: 50, slugFrom: "name" }),
    color: field.string({ maxLength: 6, default: "9e9e9e" }),
  },
  nested: ["name", "slug"],
  rows: {
    key: "color",
    values: [
      { slug: "active", name: "Active", color: "4caf50" },
      { slug: "up", name: "Up", color: "4caf50", shade: "dark" },
    ],
  },
});
