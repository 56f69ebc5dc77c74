import { model, field, ref } from "../../../generator/dsl/index.js";

export default model("Token", {
  app: "users",
  route: "tokens",
  description: "An API token; the requester sees and manages only their own.",
  display: "{key|last:6} ({user.username})",
  ordering: ["-created"],
  features: ["ownedByRequester"],
  fields: {
    // The owner is the requester and is never shown: the token shape has no `user`.
    user: ref.fk("users.User", { fromRequestUser: true, onDelete: "cascade", readOnly: true, writeOnly: true }),
    created: field.datetime({ autoNow: "create" }),
    expires: field.datetime({ nullable: true }),
    key: field.string({
      // Declared by the serializer itself: Django's model validation checks it.
      unique: true, uniqueCheckedBy: "django", minLength: 40, maxLength: 40, randomHex: 40,
      pattern: { regex: "^[0-9a-f]{40}$", message: "Token keys are 40 hexadecimal characters (0-9, a-f)." },
    }),
    write_enabled: field.boolean({ default: true }),
    description: field.string({ maxLength: 200 }),
  },
  nested: ["key", "write_enabled"],
  naturalKey: "key",
  filters: { q: ["description"], exclude: ["key"] },
});
