import { model, field, ref } from "../../../generator/dsl/index.js";

// Nautobot's ImageAttachment: an image uploaded for a device, location, rack or site. Nautobot
// 1.5's API parses JSON bodies only, so its serializer's image cannot be uploaded through it;
// this server takes the same fields as multipart/form-data, the image as a file part.
export default model("ImageAttachment", {
  app: "extras",
  route: "image-attachments",
  description: "An image of a device, location, rack or site, uploaded as a multipart/form-data body and served at its `image` URL.",
  // Nautobot shows the name, else the uploaded file's name; here the file's name under the media folder.
  display: "[{name}|{image}]",
  ordering: ["name"],
  hooks: "extras/image-attachment",
  fields: {
    // The models whose parent Nautobot's serializer can show (any other is a 500 there).
    content_type: field.contentType({ models: ["dcim.Device", "dcim.Location", "dcim.Rack", "dcim.Site"], required: true }),
    object_id: field.uuid({ required: true }),
    parent: ref.generic({ type: "content_type", id: "object_id", onDelete: "cascade" }),
    name: field.string({ maxLength: 50 }),
    image: field.image({ required: true, uploadTo: "image-attachments/", height: "image_height", width: "image_width" }),
    // Read from the image's header, whatever a body says.
    image_height: field.integer({ readOnly: true, default: 0, min: 0, max: 32767 }),
    image_width: field.integer({ readOnly: true, default: 0, min: 0, max: 32767 }),
    created: field.datetime({ autoNow: "create" }),
  },
  nested: ["name", "image"],
  indexes: [{ fields: ["object_id"] }, { fields: ["name"] }],
  // ImageAttachmentFilterSet: id, content_type_id, object_id, name and content_type.
  filters: {
    exclude: ["parent", "image", "image_height", "image_width", "created"],
    methods: { content_type_id: { takes: "extras.ContentType" } },
  },
});
