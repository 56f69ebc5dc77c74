import { model, field, ref } from "../../../generator/dsl/index.js";

// Nautobot's ObjectPermission: actions on objects of some types, granted to users and groups,
// limited to the objects its constraints match. The server enforces them; this is their shape.
export default model("ObjectPermission", {
  app: "users",
  route: "permissions",
  verboseName: "Permission",
  description: "Actions (view, add, change, delete, or others such as run) allowed on the objects of some types that match its constraints, to users and groups.",
  display: "{name}",
  ordering: ["name"],
  hooks: "users/object-permission",
  fields: {
    name: field.string({ required: true, maxLength: 100 }),
    description: field.string({ maxLength: 200 }),
    enabled: field.boolean({ default: true }),
    object_types: field.contentTypes({ feature: "all", required: true }),
    // Nautobot's SerializedPKRelatedField: shown nested, written as ids (integers for groups);
    // its nested serializer lists only their names.
    groups: ref.m2m("users.Group", { keyWhenNested: "name" }),
    users: ref.m2m("users.User", { keyWhenNested: "username" }),
    actions: field.json({
      required: true,
      description: "The actions granted (a JSONArrayField of strings of at most 30 characters): view, add, change, delete, or another a model offers (run).",
      schema: { type: "array", items: { type: "string", maxLength: 30 } },
    }),
    // Its shape is the hook's to check, in words of its own (the schema's alternatives would each speak).
    constraints: field.json({
      nullable: true,
      description: "The objects the permission applies to: an object of Django lookups (`{\"site__slug\": \"ams01\"}`, `$user` for the requester), or a list of such objects, any of which may match; null (or empty) for every object.",
    }),
  },
  nested: ["name", "enabled", "object_types", "groups", "users", "actions"],
  filters: {
    exclude: ["description", "groups", "users", "object_types", "actions", "constraints"],
    aliases: { user: "users", group: "groups" },
    // Meta field `object_types`: content types by id, as Django's filter over the link.
    methods: { object_types: { takes: "extras.ContentType" }, object_types__n: { takes: "extras.ContentType" } },
  },
});
