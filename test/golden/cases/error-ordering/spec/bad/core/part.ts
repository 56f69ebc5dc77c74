import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

// Paths that stop at a non-link, end at a link or an unknown field, or leave the model unknown.
export default model("Part", {
  app: "core",
  route: "parts",
  display: "{name}",
  ordering: ["maker.name", "name.length", "maker.parent", "-maker.nope", "maker.parent.name", "nothing.name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    maker: ref.fk("core.Maker"),
  },
  nested: ["name"],
});
