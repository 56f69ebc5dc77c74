import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "bad",
  title: "Bad image fields and export templates",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  exportTemplates: "core.Photo",
});
