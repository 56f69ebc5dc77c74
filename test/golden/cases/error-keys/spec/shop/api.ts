import { api } from "../../../../../../generator/dsl/index.js";

// `tagmodel` is misspelt: the API would silently have no tags.
export default api({ name: "shop", title: "Shop", profile: "drf", basePath: "/api/", apps: ["store"], tagmodel: "store.Tag" } as never);
