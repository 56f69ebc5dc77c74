import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "cal",
  title: "Tiny calendar",
  description: "A post type with a wall-clock span and a taxonomy, served WordPress-style.",
  profile: "wordpress",
  basePath: "/cal/v1/",
  apps: ["events"],
  idType: "serial",
  settings: { timezone: "UTC", PER_PAGE: 10, MAX_PER_PAGE: 50 },
});
