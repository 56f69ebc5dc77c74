import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

export default model("Option", {
  app: "core",
  route: "options",
  display: "{value}",
  ordering: ["value"],
  fields: {
    field: ref.fk("core.Definition", { required: true }),
    value: field.string({ required: true, maxLength: 100 }),
  },
  nested: ["value"],
});
