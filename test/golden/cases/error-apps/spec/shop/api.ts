import { api } from "../../../../../../generator/dsl/index.js";

export default api({ name: "shop", title: "Shop", profile: "drf", basePath: "/api/", apps: ["store", "plugins"] });
