import { model, field, ref } from "../../../generator/dsl/index.js";

// Nautobot's JobHook: a job-hook receiver run, after the change commits, for each create,
// update or delete of an object of the chosen types (runtime/features/jobs/hooks.ts).
export default model("JobHook", {
  app: "extras",
  route: "job-hooks",
  description: "A job-hook receiver run when objects of the chosen types are created, updated or deleted.",
  display: "{name}",
  ordering: ["name"],
  features: ["customFields", "notes", "changeLogged"],
  hooks: "extras/job-hook",

  fields: {
    // The models whose changes run it: those whose changes are recorded.
    content_types: field.contentTypes({ feature: "changeLogged", required: true, verboseName: "Object types" }),
    // Its job must be a job-hook receiver (the hook module refuses others).
    job: ref.fk("extras.Job", { relatedName: "job_hook", required: true, onDelete: "cascade", verboseName: "Job" }),
    enabled: field.boolean({ default: true }),
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    // Nautobot's AutoSlugField from the name: its serializer leaves it out, its filters take it.
    slug: field.string({ unique: true, maxLength: 100, slugFrom: "name", readOnly: true, writeOnly: true }),
    type_create: field.boolean({ default: false }),
    type_update: field.boolean({ default: false }),
    type_delete: field.boolean({ default: false }),
  },
  nested: ["name"],
  filters: {
    q: ["name", "slug"],
    // JobHookFilterSet's Meta fields, with the job (by id or slug).
    exclude: ["created", "last_updated"],
    aliases: { slug: "slug" },
  },
});
