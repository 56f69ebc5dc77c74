import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "sid",
  title: "Serial ids",
  description: "A model with database-assigned integer ids among models with UUIDs: links to it, its filters, its paths.",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  versions: { default: "1.0", supported: ["1.0"] },
  contentTypes: "core.Kind",
  auth: { users: "core.Person" },
  permissions: { objectPermissions: "core.Grant", groups: "core.Team" },
});
