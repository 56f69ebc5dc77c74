import { model, field } from "../../../../../../../generator/dsl/index.js";

// auth.users without password, is_active, is_superuser.
export default model("Person", {
  app: "core",
  route: "people",
  display: "{username}",
  ordering: [],
  fields: { username: field.string({ required: true }) },
  nested: [],
});
