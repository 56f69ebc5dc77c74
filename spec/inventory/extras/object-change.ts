import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const ObjectChangeAction = choices("ObjectChangeAction", [
  ["create", "Created"], ["update", "Updated"], ["delete", "Deleted"],
]);

export const ObjectChangeEventContext = choices("ObjectChangeEventContext", [
  ["web", "Web"], ["job", "Job"], ["job-hook", "Job hook"], ["orm", "ORM"], ["unknown", "Unknown"],
]);

// Nautobot's ObjectChange: one record per create, update or delete of a change-logged object,
// written by the server in the write's own transaction (the api's changeLog), only read here.
// Its serializer shows fewer fields than the model keeps: the hidden ones are still stored.
// Nothing writes through the API, so `required` marks only the columns every record fills.
export default model("ObjectChange", {
  app: "extras",
  route: "object-changes",
  description: "A change to an object: who made it, when, in which request, and the object's data after it.",
  // Nautobot's __str__: the content type, the object, the action's label lower-cased (each the value and a d) and who.
  display: "{changed_object_type|display} {object_repr} {action}d by {user_name}",
  ordering: ["-time"],
  operations: ["list", "retrieve"],
  hooks: "extras/object-change",
  fields: {
    time: field.datetime({ readOnly: true, default: "now" }),
    user: ref.fk("users.User", { nullable: true, readOnly: true, onDelete: "setNull" }),
    // The username as it was ("Undefined" without a user), kept when the user goes.
    user_name: field.string({ readOnly: true, maxLength: 150 }),
    request_id: field.uuid({ required: true }),
    action: field.choice(ObjectChangeAction, { readOnly: true }),
    changed_object_type: field.contentType({ feature: "changeLogged", required: true }),
    changed_object_id: field.uuid({ required: true }),
    // The object as it is now, nested; null once it is deleted.
    changed_object: ref.generic({ type: "changed_object_type", id: "changed_object_id" }),
    // The object a component belongs to (an interface's device), whose change log shows it too.
    related_object_type: field.contentType({ feature: "changeLogged", nullable: true, readOnly: true, writeOnly: true }),
    related_object_id: field.uuid({ nullable: true, readOnly: true, writeOnly: true }),
    object_repr: field.string({ maxLength: 200, readOnly: true, writeOnly: true }),
    object_data: field.json({ required: true }),
    object_data_v2: field.json({ nullable: true, readOnly: true, writeOnly: true }),
    change_context: field.choice(ObjectChangeEventContext, { readOnly: true, writeOnly: true }),
    change_context_detail: field.string({ maxLength: 400, readOnly: true, writeOnly: true }),
  },
  nested: [],
  indexes: [
    { fields: ["request_id", "changed_object_type", "changed_object_id"] },
    { fields: ["request_id", "changed_object_type"] },
    { fields: ["changed_object_id"] },
  ],
  filters: {
    q: ["user_name", "object_repr"],
    aliases: { object_repr: "object_repr" },
    // Meta field `changed_object_type_id`: content types by id.
    methods: { changed_object_type_id: { takes: "extras.ContentType" }, changed_object_type_id__n: { takes: "extras.ContentType" } },
  },
});
