import { model, field } from "../../../generator/dsl/index.js";

// Nautobot's ExportTemplate: a Jinja2 template over a list of objects (`queryset`), rendered
// by `?export=<name>` on the list of its content type (runtime/features/export-templates/).
export default model("ExportTemplate", {
  app: "extras",
  route: "export-templates",
  description: "A Jinja2 template rendering a list of objects of one type (`queryset`) as a file, served by `?export=<name>` on that type's list.",
  display: "{content_type|display}: {name}",
  ordering: ["content_type", "name"],
  features: ["notes", "changeLogged"],
  hooks: "extras/export-template",
  fields: {
    content_type: field.contentType({ feature: "all", required: true }),
    // The Git repository that provides the template, if one does: this API has no model that can
    // own one yet, so the owner is always null (as config context schemas' owners).
    owner_content_type: field.string({ nullable: true, readOnly: true, maxLength: 100 }),
    owner_object_id: field.uuid({ nullable: true, readOnly: true }),
    owner: field.json({ nullable: true, readOnly: true }),
    name: field.string({ required: true, maxLength: 100 }),
    description: field.string({ maxLength: 200 }),
    template_code: field.text({ required: true, description: "The list of objects being exported is passed as a context variable named queryset." }),
    mime_type: field.string({ maxLength: 50, verboseName: "MIME type", description: "Defaults to text/plain" }),
    file_extension: field.string({ maxLength: 15, description: "Extension to append to the rendered filename" }),
  },
  nested: ["name"],
  // ExportTemplateFilterSet: id, content_type, owner_content_type, owner_object_id, name.
  filters: { q: ["name", "owner_content_type", "description"], exclude: ["owner", "description", "template_code", "mime_type", "file_extension", "created", "last_updated"] },
});
