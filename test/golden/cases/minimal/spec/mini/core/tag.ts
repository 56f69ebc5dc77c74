import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Tag", {
  app: "core",
  route: "tags",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 50 }),
    slug: field.string({ unique: true, maxLength: 50, slugFrom: "name" }),
  },
  nested: ["name", "slug"],
});
