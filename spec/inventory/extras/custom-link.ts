import { model, field, choices } from "../../../generator/dsl/index.js";

export const ButtonClass = choices("ButtonClass", [
  ["default", "Default"], ["primary", "Primary (blue)"], ["success", "Success (green)"], ["info", "Info (aqua)"],
  ["warning", "Warning (orange)"], ["danger", "Danger (red)"], ["link", "None (link)"],
]);

// Nautobot's CustomLink: a link shown on the pages of objects of one type, its text and URL
// Jinja2 templates rendered with the object as `obj`. Nautobot renders them in its UI only; the
// `render` action is this server's way to render one for an object over the API.
export default model("CustomLink", {
  app: "extras",
  route: "custom-links",
  description: "A link to an external page about objects of one type, its text and URL Jinja2 templates of the object (`obj`).",
  display: "{name}",
  ordering: ["group_name", "weight", "name"],
  features: ["notes", "changeLogged"],
  hooks: "extras/custom-link",
  fields: {
    target_url: field.string({ required: true, maxLength: 500, verboseName: "URL", description: "Jinja2 template code for link URL. Reference the object as {{ obj }} such as {{ obj.platform.slug }}." }),
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    content_type: field.contentType({ feature: "all", required: true }),
    text: field.string({ required: true, maxLength: 500, description: "Jinja2 template code for link text. Reference the object as {{ obj }} such as {{ obj.platform.slug }}. Links which render as empty text will not be displayed." }),
    weight: field.integer({ default: 100, min: 0, max: 32767 }),
    group_name: field.string({ maxLength: 50, description: "Links with the same group will appear as a dropdown menu" }),
    button_class: field.choice(ButtonClass, { default: "default", plain: true, description: "The class of the first link in a group will be used for the dropdown button" }),
    new_window: field.boolean({ required: true, description: "Force link to open in a new window" }),
  },
  nested: ["content_type", "name"],
  // CustomLinkFilterSet: its Meta fields, no id.
  filters: { q: ["name", "target_url", "text"], exclude: ["id", "created", "last_updated"] },
  actions: {
    render: {
      description: "The link rendered for one object of its content type (`object_id`), as Nautobot's custom_links template tag renders it: its text and URL, or why the templates failed. An extension of this server: Nautobot renders custom links in its web pages only.",
      parameters: { object_id: { description: "The id of the object of the link's content type to render it for.", required: true } },
      response: {
        type: "object",
        properties: {
          name: { type: "string" }, text: { type: "string" }, url: { type: "string" }, group_name: { type: "string" },
          button_class: { type: "string" }, new_window: { type: "boolean" }, visible: { type: "boolean" }, error: { type: ["string", "null"] },
        },
        required: ["name", "text", "url", "group_name", "button_class", "new_window", "visible", "error"],
      },
    },
  },
});
