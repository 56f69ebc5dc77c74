import { model, field } from "../../../generator/dsl/index.js";

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
  },
  nested: ["username"],
  naturalKey: "username",
  filters: { q: ["username", "first_name", "last_name", "email"] },
});
