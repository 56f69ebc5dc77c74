import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const PostStatus = choices("PostStatus", [
  ["publish", "Published"], ["future", "Scheduled"], ["draft", "Draft"],
  ["pending", "Pending review"], ["private", "Private"], ["trash", "Trash"],
]);

export default model("Event", {
  app: "events",
  route: "events",
  description: "A calendar event: a post with a start and an end in its own timezone.",
  display: "{title}",
  ordering: ["start_date"],
  fields: {
    author: field.uuid({ nullable: true, description: "The user who wrote the event." }),
    status: field.choice(PostStatus, { default: "publish" }),
    date: field.datetime({ default: "now", description: "Publication date." }),
    modified: field.datetime({ default: "now", readOnly: true }),
    title: field.string({ required: true, maxLength: 255 }),
    // The plugin refuses an empty description or excerpt (a venue's or organizer's may be cleared).
    description: field.text({ blank: false }),
    excerpt: field.text({ blank: false }),
    slug: field.string({ unique: true, maxLength: 200, slugFrom: "title" }),
    image: field.string({ maxLength: 500, description: "Featured image URL or attachment id." }),
    all_day: field.boolean({ default: false }),
    start_date: field.datetime({ required: true, description: "Start, wall time in the event's timezone." }),
    end_date: field.datetime({ required: true, description: "End, wall time in the event's timezone." }),
    utc_start_date: field.datetime({ readOnly: true, nullable: true }),
    utc_end_date: field.datetime({ readOnly: true, nullable: true }),
    timezone: field.string({ maxLength: 64 }),
    cost: field.string({ maxLength: 100 }),
    website: field.string({ maxLength: 500, format: "url" }),
    show_map: field.boolean({ default: true }),
    show_map_link: field.boolean({ default: true }),
    hide_from_listings: field.boolean({ default: false }),
    sticky: field.boolean({ default: false }),
    featured: field.boolean({ default: false }),
    categories: ref.m2m("events.Category"),
    tags: ref.m2m("events.Tag"),
    venue: ref.fk("venues.Venue", { nullable: true, onDelete: "setNull" }),
    organizer: ref.m2m("organizers.Organizer"),
    // Written and filtered (`post_parent`), never shown: the plugin's records have no such key.
    post_parent: ref.fk("events.Event", { nullable: true, onDelete: "setNull", writeOnly: true }),
  },
  // Embedded whole, as every post is.
  nested: "all",
  wordpress: {
    kind: "post",
    listKey: "events",
    noun: "event",
    titleField: "title",
    slugRoutes: true,
    wallClock: { start: "start_date", end: "end_date", timezone: "timezone", allDay: "all_day", utcStart: "utc_start_date", utcEnd: "utc_end_date" },
    money: "cost",
    images: ["image"],
    html: ["description", "excerpt"],
    permalinkFallback: ["website"],
    hiddenFlag: "hide_from_listings",
    search: ["title", "description", "excerpt"],
    embed: ["categories", "tags", "venue", "organizer"],
    archiveOrder: "start_date",
  },
});
