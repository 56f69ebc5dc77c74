import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("User", {
  app: "users",
  route: "users",
  description: "A person or service that signs in; owns API tokens.",
  display: "{username}",
  ordering: ["username"],
  fields: {
    username: field.string({ required: true, unique: true, uniqueMessage: "A user with that username already exists.", maxLength: 150 }),
    password: field.password({ required: true, writeOnly: true, maxLength: 128 }),
    first_name: field.string({ maxLength: 150 }),
    last_name: field.string({ maxLength: 150 }),
    email: field.string({ maxLength: 254, format: "email" }),
    is_staff: field.boolean({ default: false }),
    is_active: field.boolean({ default: true }),
    is_superuser: field.boolean({ default: false }),
    date_joined: field.datetime({ default: "now" }),
    // Nautobot's SerializedPKRelatedField: shown nested, written as the groups' integer ids.
    groups: ref.m2m("users.Group"),
    // The user's own settings (Nautobot's User.config_data), served at users/config, never here.
    config_data: field.json({ readOnly: true, writeOnly: true, default: {} }),
  },
  nested: ["username"],
  naturalKey: "username",
  filters: {
    q: ["username", "first_name", "last_name", "email"],
    // UserFilterSet: its Meta fields, and `group`/`group_id` for the groups.
    exclude: ["is_superuser", "date_joined", "groups"],
    aliases: { group: "groups" },
  },
});
