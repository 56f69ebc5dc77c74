import { api, type Profile } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "Bad_Name",
  title: "Bad",
  profile: "soap" as Profile,
  basePath: "api",
  apps: ["core", "core"],
  versions: { default: "2.0", supported: ["1.0"] },
  auth: { users: "core.Nobody", tokens: "core.Ghost" },
  tagModel: "core.Missing",
});
