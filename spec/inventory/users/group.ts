import { model, field } from "../../../generator/dsl/index.js";

// Django's auth.Group, as Nautobot serves it: integer ids (bulk updates and deletes name them
// so, as BulkOperationIntegerIDSerializer), and the users in it counted.
export default model("Group", {
  app: "users",
  route: "groups",
  idType: "serial",
  description: "A set of users that object permissions are granted to together.",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 150 }),
    user_count: field.count({ of: "users.User.groups" }),
  },
  nested: ["name"],
  naturalKey: "name",
  filters: { q: ["name"] },
});
