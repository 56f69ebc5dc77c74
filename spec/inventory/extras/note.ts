import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("Note", {
  app: "extras",
  route: "notes",
  description: "A note a user attached to an object; also listed and made at the object's own notes/ route.",
  display: "{slug}",
  ordering: ["created"],
  features: ["changeLogged"],
  hooks: "extras/note",
  fields: {
    user: ref.fk("users.User", { nullable: true, readOnly: true, fromRequestUser: true, onDelete: "setNull" }),
    // The author's username as it was (Nautobot keeps "Undefined" when there is no user).
    user_name: field.string({ readOnly: true, maxLength: 150 }),
    assigned_object_type: field.contentType({ feature: "notes", required: true }),
    assigned_object_id: field.uuid({ required: true }),
    assigned_object: ref.generic({ type: "assigned_object_type", id: "assigned_object_id", onDelete: "cascade" }),
    note: field.text({ required: true }),
    slug: field.string({ unique: true, maxLength: 100 }),
  },
  nested: ["assigned_object", "note", "user", "slug"],
  indexes: [{ fields: ["assigned_object_type", "assigned_object_id"] }],
  filters: {
    q: ["user_name", "note"],
    exclude: ["slug", "assigned_object"],
  },
});
