import { model, field, ref, choices } from "../../../../../../../generator/dsl/index.js";

const Action = choices("Action", [["create", "Created"], ["remove", "Removed"]]);

export default model("Change", {
  app: "core",
  route: "changes",
  display: "{object_repr}",
  ordering: ["-time"],
  operations: ["list", "retrieve"],
  fields: {
    time: field.datetime({ readOnly: true, default: "now" }),
    user: ref.fk("core.Team", { nullable: true, onDelete: "setNull" }),
    action: field.choice(Action),
    change_context: field.string({ maxLength: 50 }),
    changed_object_type: field.contentType({ feature: "all", required: true }),
    changed_object_id: field.uuid({ required: true }),
    changed_object: ref.generic({ type: "changed_object_type", id: "changed_object_id" }),
    object_repr: field.string({ maxLength: 200 }),
  },
  nested: [],
});
