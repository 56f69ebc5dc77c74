import { model, field } from "../../../generator/dsl/index.js";

/** Nautobot's JobClassSerializer (1.2's job list), its result a JobResult of the shape named. */
const jobClass = (result: string) => ({
  type: "object",
  properties: {
    url: { type: "string", format: "uri" },
    id: { type: "string", description: "The class path: source/module/Class" },
    pk: { type: ["string", "null"], format: "uuid" },
    name: { type: "string" },
    description: { type: "string" },
    test_methods: { type: "array", items: { type: "string" } },
    vars: { type: "object", additionalProperties: { type: "string" }, description: "Each variable's type, by name" },
    result: { anyOf: [{ $ref: `#/components/schemas/${result}` }, { type: "null" }] },
  },
  required: ["url", "id", "pk", "name", "description", "test_methods", "vars", "result"],
});

/** Nautobot's JobInputSerializer: a run's body. */
const JOB_INPUT = {
  type: "object",
  properties: {
    data: { type: "object", description: "The job's variables, by name" },
    commit: { type: ["boolean", "null"], description: "false: a dry run, rolled back at its end (default: the job's commit_default)" },
    schedule: {
      type: "object",
      description: "When to run (Nautobot's NestedScheduledJobSerializer): `interval` (immediately, future, hourly, daily, weekly, custom), " +
        "and for all but immediately a `name`, a `start_time` at least 15 seconds ahead (custom: optional) and, for custom, a `crontab`",
      properties: {
        name: { type: "string", maxLength: 255 },
        start_time: { type: "string", format: "date-time" },
        interval: { type: "string", enum: ["immediately", "future", "hourly", "daily", "weekly", "custom"] },
        crontab: { type: "string", maxLength: 255 },
      },
      required: ["interval"],
    },
    task_queue: { type: "string" },
  },
};

/** Nautobot's JobMultiPartInputSerializer: a run's multipart/form-data body, the job's variables beside these. */
const JOB_MULTIPART_INPUT = {
  type: "object",
  properties: {
    _commit: { type: ["boolean", "null"] },
    _schedule_name: { type: "string", maxLength: 255 },
    _schedule_start_time: { type: "string", format: "date-time" },
    _schedule_interval: { enum: ["immediately", "future", "hourly", "daily", "weekly", "custom"] },
    _schedule_crontab: { type: "string" },
    _task_queue: { type: "string" },
  },
  additionalProperties: { description: "The job's variables, by name: values as text, files as files" },
};

/** Nautobot's JobVariableSerializer: one variable of a job. */
const JOB_VARIABLE = {
  type: "object",
  properties: {
    name: { type: "string" }, type: { type: "string" }, label: { type: "string" }, help_text: { type: "string" },
    default: {}, required: { type: "boolean" }, min_length: { type: "integer" }, max_length: { type: "integer" },
    min_value: { type: "integer" }, max_value: { type: "integer" }, choices: {}, model: { type: "string" },
  },
  required: ["name", "type"],
};

/** A job's flag whose value the job's source gives unless the record overrides it (Nautobot's JOB_OVERRIDABLE_FIELDS). */
const override = () => field.boolean({ default: false, description: "If set, the configured value remains even if the job's source code changes" });

// Nautobot's Job: the record of a job module's job (runtime/features/jobs/), made and refreshed from the
// jobs folder at startup, never created through the API. Its overridable fields take the
// source's values (kept in `source_values`) unless their `*_override` flag is set.
export default model("Job", {
  app: "extras",
  route: "jobs",
  description: "A job found in the jobs folder: what it is, whether it may run, and values that override its source's.",
  display: "{name}",
  ordering: ["grouping", "name"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  operations: ["list", "retrieve", "update", "delete"],
  hooks: "extras/job",
  fields: {
    source: field.string({ readOnly: true, maxLength: 16, description: "Where the job's code comes from: local (the jobs folder), git or plugins" }),
    module_name: field.string({ readOnly: true, maxLength: 100 }),
    job_class_name: field.string({ readOnly: true, maxLength: 100 }),
    grouping: field.string({ maxLength: 255, blank: false }),
    grouping_override: override(),
    name: field.string({ maxLength: 100, blank: false }),
    name_override: override(),
    slug: field.string({ unique: true, maxLength: 320, blank: false }),
    description: field.text(),
    description_override: override(),
    installed: field.boolean({ readOnly: true, default: true }),
    enabled: field.boolean({ default: false }),
    is_job_hook_receiver: field.boolean({ readOnly: true, default: false }),
    is_job_button_receiver: field.boolean({ readOnly: true, default: false }),
    has_sensitive_variables: field.boolean({ default: true }),
    has_sensitive_variables_override: override(),
    approval_required: field.boolean({ default: false }),
    approval_required_override: override(),
    commit_default: field.boolean({ default: true }),
    commit_default_override: override(),
    hidden: field.boolean({ default: false }),
    hidden_override: override(),
    read_only: field.boolean({ default: false }),
    read_only_override: override(),
    soft_time_limit: field.float({ default: 0, min: 0 }),
    soft_time_limit_override: override(),
    time_limit: field.float({ default: 0, min: 0 }),
    time_limit_override: override(),
    // Nautobot's JSONArrayField, which its serializer leaves to DRF's JSONField.
    task_queues: field.json({ default: [], schema: { type: "array", items: { type: "string", maxLength: 100 } } }),
    task_queues_override: override(),
    // What the job's source says, kept by the sync: the values of the overridable fields, and
    // the variables the job takes (runtime/features/jobs/variables.ts). Never shown, never written by clients.
    source_values: field.json({ readOnly: true, writeOnly: true, default: {} }),
    variables: field.json({ readOnly: true, writeOnly: true, default: [] }),
  },
  nested: ["source", "module_name", "job_class_name", "grouping", "name", "slug"],
  uniqueTogether: [{ fields: ["source", "module_name", "job_class_name"], checkedBy: "django" }, ["grouping", "name"]],
  actions: {
    "job-classes": {
      description: "API 1.2's job list: the installed jobs as job classes, each with its latest finished result (deprecated)",
      servesList: { until: "1.2" },
      response: { type: "array", items: jobClass("NestedJobResult") },
    },
    "class-detail": {
      description: "A job by its class path, as API 1.2 shows it (deprecated)",
      path: "{source}/{module}/{class}",
      response: jobClass("JobResult"),
    },
    "class-run": {
      description: "Runs a job given by its class path; answers as API 1.2 does, with the new pending result (deprecated)",
      path: "{source}/{module}/{class}/run",
      method: "POST",
      permission: "run",
      request: JOB_INPUT,
      multipart: JOB_MULTIPART_INPUT,
      response: jobClass("JobResult"),
    },
    variables: {
      description: "The variables the job takes, in order",
      response: { type: "array", items: JOB_VARIABLE },
    },
    run: {
      description: "Runs the job: checks its data, then records a pending job result and queues it for a worker, or, " +
        "given a schedule or for a job that needs approval, records the scheduled job (and no result)",
      method: "POST",
      permission: "run",
      status: 201,
      request: JOB_INPUT,
      multipart: JOB_MULTIPART_INPUT,
      response: {
        type: "object",
        properties: {
          schedule: { anyOf: [{ $ref: "#/components/schemas/NestedScheduledJob" }, { type: "null" }] },
          job_result: { anyOf: [{ $ref: "#/components/schemas/NestedJobResult" }, { type: "null" }] },
        },
        required: ["schedule", "job_result"],
      },
    },
  },
  filters: {
    q: ["name", "slug", "grouping", "description"],
    // JobFilterSet's Meta fields: not the description, the queues, or the change-log dates.
    exclude: ["description", "task_queues", "task_queues_override", "created", "last_updated"],
  },
});
