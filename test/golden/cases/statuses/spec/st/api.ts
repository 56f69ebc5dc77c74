import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "st",
  title: "Statuses",
  description: "Statuses as rows: a status model with starting rows, and a model whose status field was a choice.",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  versions: { default: "1.0", supported: ["1.0"] },
  contentTypes: "core.Kind",
  statusModel: "core.State",
});
