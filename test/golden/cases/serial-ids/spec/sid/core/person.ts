import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

export default model("Person", {
  app: "core",
  route: "people",
  display: "{username}",
  ordering: ["username"],
  fields: {
    username: field.string({ required: true, unique: true, maxLength: 150 }),
    password: field.password({ required: true, writeOnly: true, maxLength: 128 }),
    is_active: field.boolean({ default: true }),
    is_superuser: field.boolean({ default: false }),
    // Many teams, written as their integer ids; one lead team, a foreign key to an integer id.
    teams: ref.m2m("core.Team"),
    lead: ref.fk("core.Team", { nullable: true, onDelete: "setNull", idWhenNested: true }),
    groups: ref.m2m("core.Team"),
  },
  nested: ["username", "lead"],
  naturalKey: "username",
  filters: { aliases: { team: "teams" }, exclude: ["teams"] },
});
