import { field, model } from "../../../../../../../generator/dsl/index.js";

// A job record with its source's fields but the overrides only of some; its status is plain text.
export default model("Job", {
  app: "core", route: "jobs", display: "{name}", ordering: ["name"], nested: ["name"],
  fields: {
    source: field.string({ readOnly: true }), module_name: field.string({ readOnly: true }), job_class_name: field.string({ readOnly: true }),
    slug: field.string({ unique: true }), installed: field.boolean({ default: true }), enabled: field.boolean({ default: false }),
    source_values: field.json({ default: {} }), variables: field.json({ default: [] }),
    grouping: field.string(), name: field.string({ required: true }), description: field.text(), commit_default: field.boolean({ default: true }),
    hidden: field.boolean({ default: false }), read_only: field.boolean({ default: false }), approval_required: field.boolean({ default: false }),
    soft_time_limit: field.float({ default: 0 }), time_limit: field.float({ default: 0 }), has_sensitive_variables: field.boolean({ default: true }),
    task_queues: field.json({ default: [] }), grouping_override: field.boolean({ default: false }), name_override: field.boolean({ default: false }),
  },
});
