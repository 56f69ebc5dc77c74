import { model, field, ref } from "../../../../../../../generator/dsl/index.js";

export default model("Event", {
  app: "events",
  route: "events",
  description: "A post type whose options name fields it does not have.",
  display: "{title}",
  ordering: ["title"],
  fields: {
    title: field.string({ required: true, maxLength: 50 }),
    status: field.string({ maxLength: 20 }),
    slug: field.string({ unique: true, maxLength: 50, slugFrom: "title" }),
    date: field.datetime({ nullable: true }),
    modified: field.datetime({ nullable: true }),
    start: field.datetime({ nullable: true }),
    tag: ref.fk("events.Tag", { nullable: true }),
  },
  nested: ["title"],
  wordpress: {
    kind: "page",
    listKey: "events",
    noun: "event",
    wallClock: { start: "start", end: "finish", timezone: "tz", utcStart: "start", zone: "x" },
    embed: ["tag", "title"],
    archiveOrder: "starts",
  } as never,
});
