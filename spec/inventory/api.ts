import { api } from "../../generator/dsl/index.js";

export default api({
  name: "inventory",
  title: "Armature network inventory API",
  description: "Network-infrastructure inventory: sites, prefixes, IP addresses, tenants and more.",
  profile: "drf",
  basePath: "/api/",
  apps: ["circuits", "dcim", "extras", "ipam", "plugins", "tenancy", "users", "virtualization"],
  rootLinks: ["graphql", "status"],
  versions: { default: "1.2", supported: ["1.2", "1.3", "1.4", "1.5"] },
  settings: {
    PAGINATE_COUNT: 50,
    MAX_PAGE_SIZE: 1000,
    STRICT_FILTERING: true,
    // Nautobot ignores unknown keys in a write body, and clients send some (pynautobot's
    // device-type set-up, the Ansible collection's VLAN groups); true refuses them instead.
    STRICT_WRITE_FIELDS: false,
    EXEMPT_VIEW_PERMISSIONS: [],
    // The Nautobot release whose REST behaviour this API reproduces (pynautobot's tooling and
    // the Ansible collection read nautobot-version), and that release's Django and Python.
    STATUS: { "nautobot-version": "1.5.24", "django-version": "3.2.20", "python-version": "3.11.2" },
  },
  auth: { users: "users.User", tokens: "users.Token", settings: "config_data" },
  tagModel: "extras.Tag",
  // API 1.4 on keys every object's custom_fields by the definitions' slugs (Nautobot's
  // CustomFieldsDataField); the data and the cf_ filters keep the names.
  customFields: { definitions: "extras.CustomField", choices: "extras.CustomFieldChoice", slugKeysSince: "1.4" },
  computedFieldModel: "extras.ComputedField",
  noteModel: "extras.Note",
  relationships: { definitions: "extras.Relationship", associations: "extras.RelationshipAssociation" },
  contentTypes: "extras.ContentType",
  statusModel: "extras.Status",
  changeLog: "extras.ObjectChange",
  webhooks: "extras.Webhook",
  exportTemplates: "extras.ExportTemplate",
  permissions: { objectPermissions: "users.ObjectPermission", groups: "users.Group" },
  jobs: { jobs: "extras.Job", results: "extras.JobResult", logs: "extras.JobLogEntry", schedules: "extras.ScheduledJob", hooks: "extras.JobHook" },
  appNames: { dcim: "DCIM", ipam: "IPAM" },
});
