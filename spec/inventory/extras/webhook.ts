import { model, field, choices } from "../../../generator/dsl/index.js";

export const WebhookHttpMethod = choices("WebhookHttpMethod", [
  ["GET", "GET"], ["POST", "POST"], ["PUT", "PUT"], ["PATCH", "PATCH"], ["DELETE", "DELETE"],
]);

// Nautobot's Webhook (the api's webhooks): a request the server sends, after a change commits,
// for changes of the chosen kinds to objects of the chosen types.
export default model("Webhook", {
  app: "extras",
  route: "webhooks",
  description: "A request sent to a URL when objects of the chosen types are created, updated or deleted.",
  display: "{name}",
  ordering: ["name"],
  features: ["notes", "changeLogged"],
  hooks: "extras/webhook",
  fields: {
    // The models whose changes it is sent for: those whose changes are recorded.
    content_types: field.contentTypes({ feature: "changeLogged", required: true }),
    name: field.string({ required: true, unique: true, maxLength: 150 }),
    type_create: field.boolean({ default: false }),
    type_update: field.boolean({ default: false }),
    type_delete: field.boolean({ default: false }),
    payload_url: field.string({ required: true, maxLength: 500, verboseName: "URL" }),
    // Nautobot 1.5's serializer leaves it out: a webhook made through the API is enabled.
    enabled: field.boolean({ default: true, readOnly: true, writeOnly: true }),
    http_method: field.choice(WebhookHttpMethod, { default: "POST", verboseName: "HTTP method" }),
    http_content_type: field.string({ maxLength: 100, default: "application/json", blank: false, verboseName: "HTTP content type" }),
    // Jinja2 templates, rendered with the body's context: `Name: Value` lines, and the body.
    additional_headers: field.text(),
    body_template: field.text(),
    // The key of the HMAC-SHA512 of the body sent in X-Hook-Signature; never sent itself.
    secret: field.string({ maxLength: 255 }),
    ssl_verification: field.boolean({ default: true, verboseName: "SSL verification" }),
    ca_file_path: field.string({ maxLength: 4096, nullable: true, verboseName: "CA File Path" }),
  },
  nested: ["name"],
  filters: {
    q: ["name", "payload_url", "additional_headers", "body_template"],
    // WebhookFilterSet: name, payload_url, enabled, content_types and the three types.
    exclude: ["id", "http_method", "http_content_type", "additional_headers", "body_template", "secret", "ssl_verification", "ca_file_path", "created", "last_updated"],
    aliases: { enabled: "enabled" },
  },
});
