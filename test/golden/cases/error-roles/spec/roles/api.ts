import { api } from "../../../../../../generator/dsl/index.js";

export default api({
  name: "roles",
  title: "Roles",
  profile: "drf",
  basePath: "/api/",
  apps: ["core"],
  contentTypes: "core.Kind",
  auth: { users: "core.Person" },
  tagModel: "core.Label",
  // A change log missing fields and with a wrong kind, webhooks naming nothing, permissions
  // whose links go elsewhere and whose users model has no groups; jobs whose results are a
  // model without their fields and whose log entries are no model.
  changeLog: "core.Change",
  webhooks: "core.Hook",
  permissions: { objectPermissions: "core.Grant", groups: "core.Team" },
  jobs: { jobs: "core.Job", results: "core.Label", logs: "core.Line" },
});
