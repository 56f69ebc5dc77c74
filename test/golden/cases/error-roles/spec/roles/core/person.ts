import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Person", {
  app: "core",
  route: "people",
  display: "{username}",
  ordering: ["username"],
  fields: {
    username: field.string({ required: true, maxLength: 150 }),
    password: field.password({ required: true, writeOnly: true }),
    is_active: field.boolean({ default: true }),
    is_superuser: field.boolean({ default: false }),
  },
  nested: ["username"],
});
