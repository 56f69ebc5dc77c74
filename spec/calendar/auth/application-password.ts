import { model, field } from "../../../generator/dsl/index.js";

export default model("ApplicationPassword", {
  app: "auth",
  route: "application-passwords",
  description: "A per-user application password for HTTP Basic authentication (WordPress style).",
  display: "{name}",
  ordering: ["created"],
  fields: {
    user: field.uuid({ required: true, description: "The user (of the API that holds identities) it authenticates." }),
    name: field.string({ required: true, maxLength: 100 }),
    password: field.password({ writeOnly: true, required: true }),
    created: field.datetime({ autoNow: "create" }),
    last_used: field.datetime({ nullable: true, readOnly: true }),
  },
  nested: ["name"],
  operations: [],
});
