import { api } from "../../../../../../generator/dsl/index.js";

export default api({ name: "cal", title: "Cal", profile: "wordpress", basePath: "/cal/v1/", apps: ["events"], idType: "serial" });
