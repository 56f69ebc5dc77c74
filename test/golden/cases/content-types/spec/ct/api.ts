import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "ct",
  title: "Content types",
  description: "A content-type registry, and tags limited by content type from version 1.1.",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  versions: { default: "1.0", supported: ["1.0", "1.1"] },
  tagModel: "core.Label",
  contentTypes: "core.Kind",
  appNames: { core: "CORE" },
  // Write bodies' schemas then refuse keys that name no field.
  settings: { STRICT_WRITE_FIELDS: true },
  discard: ["core.Old"],
});
