import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "lost",
  title: "A registry that is not there",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  contentTypes: "core.Nowhere",
});
