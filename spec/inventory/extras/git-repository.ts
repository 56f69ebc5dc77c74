import { model, field, ref } from "../../../generator/dsl/index.js";

// Nautobot's GitRepository: a Git repository the server clones into its data directory
// (runtime/features/git/) and loads jobs, config contexts and config context schemas from.
// Nautobot 1.5's deprecated `token` and `username` are not served: credentials come from the
// secrets group (HTTP token and username).
export default model("GitRepository", {
  app: "extras",
  route: "git-repositories",
  description: "A Git repository used as a data source: jobs, config contexts and config context schemas are loaded from it by its sync.",
  display: "{name}",
  ordering: ["name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "extras/git-repository",
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name" }),
    remote_url: field.string({ required: true, maxLength: 255, description: "HTTP, HTTPS and file:// URLs are supported" }),
    branch: field.string({ maxLength: 64, default: "main", blank: false }),
    current_head: field.string({ maxLength: 48, description: "Commit hash of the most recent fetch from the selected branch. Used for syncing between workers." }),
    secrets_group: ref.fk("extras.SecretsGroup", { relatedName: "gitrepository_set", nullable: true, onDelete: "setNull" }),
    // Nautobot's MultipleChoiceJSONField: a list of the content identifiers of
    // runtime/features/git's contents, checked by the hook.
    provided_contents: field.json({ default: [], schema: { type: "array", items: { type: "string" } } }),
  },
  nested: ["name"],
  naturalKey: "slug",
  filters: { q: ["name", "remote_url", "branch"], exclude: ["current_head"] },
  actions: {
    sync: {
      description: "Queues a sync of the repository (a job result named after it): fetch its branch, then load what it provides",
      method: "POST",
      // Nautobot's own check of the change permission, in its words, is the hook's; the route asks for view.
      permission: "view",
      request: { type: "object", description: "Nothing is read from the body" },
      response: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    },
  },
});
