import { choices, field, model, ref } from "../../../../../../../generator/dsl/index.js";

export const Status = choices("Status", [["publish", "Published"], ["draft", "Draft"], ["trash", "Trash"]]);

export default model("Event", {
  app: "events",
  route: "events",
  description: "A post with a start and an end in a timezone, and tags.",
  display: "{title}",
  ordering: ["start_date"],
  fields: {
    author: field.uuid({ nullable: true }),
    status: field.choice(Status, { default: "publish" }),
    date: field.datetime({ default: "now" }),
    modified: field.datetime({ default: "now", readOnly: true }),
    title: field.string({ required: true, maxLength: 100 }),
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "title" }),
    start_date: field.datetime({ required: true }),
    end_date: field.datetime({ required: true }),
    utc_start_date: field.datetime({ nullable: true, readOnly: true }),
    utc_end_date: field.datetime({ nullable: true, readOnly: true }),
    timezone: field.string({ maxLength: 64 }),
    featured: field.boolean({ default: false }),
    tags: ref.m2m("events.Tag"),
  },
  nested: "all",
  wordpress: {
    kind: "post",
    listKey: "events",
    noun: "event",
    titleField: "title",
    slugRoutes: true,
    wallClock: { start: "start_date", end: "end_date", timezone: "timezone", utcStart: "utc_start_date", utcEnd: "utc_end_date" },
    search: ["title"],
    embed: ["tags"],
    archiveOrder: "start_date",
  },
});
