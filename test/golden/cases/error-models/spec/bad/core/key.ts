import { model, ref, type Feature } from "../../../../../../../generator/dsl/index.js";

// auth.tokens without key, expires, write_enabled; owned by the requester without saying how.
export default model("Key", {
  app: "core",
  route: "keys",
  display: "{user}",
  ordering: [],
  features: ["ownedByRequester", "sparkles" as Feature],
  fields: { user: ref.fk("core.Person") },
  nested: [],
});
