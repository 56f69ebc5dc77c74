import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "cf",
  title: "Custom-field models that lack what the runtime reads",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  contentTypes: "core.Kind",
  customFields: { definitions: "core.Definition", choices: "core.Option", slugKeysSince: "2.0" },
});
