import { model, field } from "../../../../../../../generator/dsl/index.js";

// Integer ids the database assigns, in an api of UUIDs.
export default model("Team", {
  app: "core",
  route: "teams",
  idType: "serial",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 150 }),
    member_count: field.count({ of: "core.Person.teams" }),
  },
  nested: ["name"],
  naturalKey: "name",
});
