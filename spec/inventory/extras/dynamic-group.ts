import { model, field, ref, choices } from "../../../generator/dsl/index.js";

/** How a child group's members combine with what the groups before it gave (Nautobot's DynamicGroupOperatorChoices). */
export const DynamicGroupOperator = choices("DynamicGroupOperator", [
  ["union", "Include (OR)"],
  ["intersection", "Restrict (AND)"],
  ["difference", "Exclude (NOT)"],
]);

// Nautobot's DynamicGroup (an OrganizationalModel): the objects of one content type that its
// filter (the content type's filter-set parameters) selects, or that its child groups give
// combined by their memberships' operators. Membership is computed, never stored
// (hooks/inventory/extras/dynamic-group.ts, runtime/query/membership.ts).
export default model("DynamicGroup", {
  app: "extras",
  route: "dynamic-groups",
  description: "A group of objects of one content type, defined by a filter or by child groups.",
  display: "{name}",
  ordering: ["content_type", "name"],
  features: ["customFields", "notes", "changeLogged"],
  hooks: "extras/dynamic-group",
  fields: {
    name: field.string({ required: true, unique: true, maxLength: 100, description: "Dynamic Group name" }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name", description: "Unique slug" }),
    description: field.string({ maxLength: 200 }),
    // The models Nautobot 1.5 registers with the `dynamic_groups` feature.
    content_type: field.contentType({
      required: true,
      models: ["dcim.Device", "dcim.DeviceRedundancyGroup", "dcim.Rack", "ipam.IPAddress", "ipam.Prefix", "virtualization.Cluster", "virtualization.VirtualMachine"],
      verboseName: "Object Type",
      description: "The type of object for this Dynamic Group.",
    }),
    // Any JSON but null, as DRF's JSONField takes it; that it is a dictionary is the model's rule, in its words.
    filter: field.json({
      default: {},
      schema: { type: ["object", "array", "string", "number", "boolean"] },
      description: "A JSON-encoded dictionary of filter parameters for group membership",
    }),
    // Read only: children are added through dynamic-group-memberships.
    children: ref.reverse("extras.DynamicGroupMembership.parent_group"),
  },
  nested: ["name", "slug", "content_type"],
  naturalKey: "slug",
  // `q` also searches the content type's app label and model name, as Nautobot's SearchFilter.
  filters: { exclude: ["filter"], methods: { q: { takes: "string" } } },
  actions: {
    members: {
      description: "The member objects of the group, of its content type, as that type's list shows them",
      response: { type: "object", additionalProperties: {} },
      paginated: true,
    },
  },
});
