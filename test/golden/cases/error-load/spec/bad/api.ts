import { api } from "../../../../../../generator/dsl/index.js";

export default api({ name: "bad", title: "Bad", profile: "drf", basePath: "/api/", apps: ["core"] });
