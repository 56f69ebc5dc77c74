import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "noreg",
  title: "No content-type registry",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
});
