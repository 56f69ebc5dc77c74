import { api } from "../../../../../../generator/dsl/index.js";

// API options of the wrong type: a version list given as one string, an idType nobody knows.
export default api({
  name: "shop", title: "Shop", profile: "drf", basePath: "/api/", apps: ["store"],
  versions: { default: "1.0", supported: "1.0" }, idType: "integer", discard: "store.Old",
} as never);
