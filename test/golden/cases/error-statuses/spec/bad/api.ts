import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "bad",
  title: "Bad statuses",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  versions: { default: "1.0", supported: ["1.0"] },
  contentTypes: "core.Kind",
  statusModel: "core.State",
});
