import { model, field, type Feature } from "../../../../../../../generator/dsl/index.js";

export default model("Label", {
  app: "core",
  route: "labels",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 50 }),
    slug: field.string({ unique: true, maxLength: 50, slugFrom: "name" }),
    both: field.contentTypes({ feature: "tags", models: ["core.Label"] }),
    neither: field.contentTypes({}),
    sparkly: field.contentTypes({ feature: "sparkles" as Feature }),
    listed: field.contentTypes({ feature: "tags", default: ["core.Label"] }),
    ghost: field.contentTypes({ models: ["core.Ghost"] }),
    empty: field.contentTypes({ models: [] }),
    late: field.contentTypes({ feature: "tags", required: true, since: "1.1" }),
  },
  nested: ["name", "slug"],
  filters: { q: ["name", "late"] },
});
