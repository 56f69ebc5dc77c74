import { api } from "../../../../../../generator/dsl/index.js";

// No tagModel, so the "tags" feature of Widget is reported.
export default api({
  name: "bad",
  title: "Bad",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  versions: { default: "1.0", supported: ["1.0"] },
  auth: { users: "core.Person", tokens: "core.Key" },
});
