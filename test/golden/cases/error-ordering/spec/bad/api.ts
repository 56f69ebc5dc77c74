import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "bad",
  title: "Bad ordering paths",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  versions: { default: "1.0", supported: ["1.0"] },
});
