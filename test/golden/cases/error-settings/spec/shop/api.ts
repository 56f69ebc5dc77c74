import { api } from "../../../../../../generator/dsl/index.js";

// A misspelt setting and a setting of the wrong type: both reported, neither ignored.
export default api({
  name: "shop", title: "Shop", profile: "drf", basePath: "/api/", apps: ["store"],
  settings: { PAGINATE_CONUT: 20, MAX_PAGE_SIZE: "1000", STRICT_FILTERING: true } as never,
});
