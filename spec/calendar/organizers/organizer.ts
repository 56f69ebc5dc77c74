import { model, field } from "../../../generator/dsl/index.js";
import { PostStatus } from "../events/event.js";

export default model("Organizer", {
  app: "organizers",
  route: "organizers",
  description: "Who runs events.",
  display: "{organizer}",
  ordering: ["-date"],
  fields: {
    author: field.uuid({ nullable: true }),
    status: field.choice(PostStatus, { default: "publish" }),
    date: field.datetime({ default: "now" }),
    modified: field.datetime({ default: "now", readOnly: true }),
    organizer: field.string({ required: true, maxLength: 255, description: "The organizer's name." }),
    description: field.text(),
    excerpt: field.text(),
    slug: field.string({ unique: true, maxLength: 200, slugFrom: "organizer" }),
    image: field.string({ maxLength: 500 }),
    phone: field.string({ maxLength: 50 }),
    website: field.string({ maxLength: 500, format: "url" }),
    email: field.string({ maxLength: 254 }),
  },
  // Embedded in events as the whole organizer record.
  nested: "all",
  wordpress: {
    kind: "post",
    listKey: "organizers",
    noun: "organizer",
    titleField: "organizer",
    slugRoutes: true,
    dropEmpty: true,
    images: ["image"],
    html: ["description", "excerpt"],
    dedupeOn: ["organizer", "description"],
    search: ["organizer", "description", "excerpt", "phone", "email", "website"],
  },
});
