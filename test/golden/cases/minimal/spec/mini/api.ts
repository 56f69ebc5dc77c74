import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "mini",
  title: "Minimal API",
  description: "One of every field type and feature.",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  versions: { default: "1.0", supported: ["1.0", "1.1"] },
  settings: { PAGINATE_COUNT: 10, MAX_PAGE_SIZE: 100 },
  tagModel: "core.Tag",
});
