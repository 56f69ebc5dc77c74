import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

export default model("Group", {
  app: "core",
  route: "groups",
  display: "{name}",
  ordering: ["name"],
  features: ["tree"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 50 }),
    item_count: field.count({ of: "core.Item.group", descendants: true }),
    items: ref.reverse("core.Item.group", { singleUntil: "1.0" }),
  },
  nested: ["name", "_depth"],
});
