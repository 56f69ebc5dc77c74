import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "st",
  title: "Statuses",
  description: "An app whose tables were first made by the API's own migrations, given a stream of its own, while the API adds a model.",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  versions: { default: "1.0", supported: ["1.0"] },
  contentTypes: "core.Kind",
  statusModel: "core.State",
});
