import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const JobExecutionType = choices("JobExecutionType", [
  ["immediately", "Once immediately"], ["future", "Once in the future"], ["hourly", "Recurring hourly"],
  ["daily", "Recurring daily"], ["weekly", "Recurring weekly"], ["custom", "Recurring custom"],
]);

/** A column the scheduler keeps and the serializers never show. */
const internal = { readOnly: true, writeOnly: true } as const;

// Nautobot's ScheduledJob: a job run set for later, on a schedule, or awaiting approval, made by
// a job's run request (hooks/inventory/lib/job-runs.ts) and fired by the scheduler
// (runtime/features/jobs/scheduler.ts). Read-only through the API but for its actions.
export default model("ScheduledJob", {
  app: "extras",
  route: "scheduled-jobs",
  description: "A job run set for later, on a schedule, or waiting for someone to approve it.",
  display: "{name}: {interval}",
  ordering: ["name"],
  operations: ["list", "retrieve"],
  hooks: "extras/scheduled-job",
  fields: {
    // The serializers take 255 characters where the model has 200: the column holds what they take.
    name: field.string({ readOnly: true, maxLength: 255 }),
    user: ref.fk("users.User", { nullable: true, readOnly: true, onDelete: "setNull" }),
    job_model: ref.fk("extras.Job", { nullable: true, readOnly: true, onDelete: "setNull" }),
    task: field.string({ readOnly: true, maxLength: 200 }),
    interval: field.choice(JobExecutionType, { plain: true, readOnly: true }),
    queue: field.string({ readOnly: true, nullable: true, maxLength: 200 }),
    job_class: field.string({ readOnly: true, maxLength: 255 }),
    last_run_at: field.datetime({ readOnly: true, nullable: true }),
    total_run_count: field.integer({ readOnly: true, default: 0, min: 0 }),
    date_changed: field.datetime({ autoNow: "update" }),
    description: field.text({ readOnly: true }),
    approved_by_user: ref.fk("users.User", { nullable: true, readOnly: true, onDelete: "setNull" }),
    approval_required: field.boolean({ readOnly: true, default: false }),
    approved_at: field.datetime({ readOnly: true, nullable: true }),
    crontab: field.string({ readOnly: true, maxLength: 255 }),
    // Shown only in the nested form, as Nautobot's serializers show it.
    start_time: field.datetime({ readOnly: true, nestedOnly: true, default: "now" }),
    // The run's data, commit flag and queue (Nautobot's kwargs), and its positional args (none).
    args: field.json({ ...internal, default: [] }),
    kwargs: field.json({ ...internal, default: {} }),
    one_off: field.boolean({ ...internal, default: false }),
    enabled: field.boolean({ ...internal, default: true }),
    // When the scheduler fires it next; null once it has nothing more to fire.
    next_run_at: field.datetime({ ...internal, nullable: true }),
  },
  nested: ["name", "start_time", "interval", "crontab"],
  indexes: [{ fields: ["next_run_at"] }, { fields: ["job_class"] }, { fields: ["task"] }],
  actions: {
    approve: {
      description: "Approves a run awaiting approval, as a user other than the one who asked for it; the scheduler then runs it when due",
      method: "POST",
      request: { type: "null", description: "No body" },
      permission: "change",
      parameters: { force: { description: "Approve a one-off run whose start time has passed (it then runs at once)" } },
      response: { $ref: "#/components/schemas/ScheduledJob" },
    },
    deny: {
      description: "Denies a run awaiting approval: the scheduled job is deleted",
      method: "POST",
      request: { type: "null", description: "No body" },
      permission: "delete",
      response: { type: "null" },
    },
    "dry-run": {
      description: "Runs the scheduled job's job now with its data, as a dry run (commit false), as the requester",
      method: "POST",
      request: { type: "null", description: "No body" },
      permission: "view",
      response: { $ref: "#/components/schemas/JobResult" },
    },
  },
  filters: {
    q: ["name", "job_class", "description"],
    // ScheduledJobFilterSet's Meta fields (id, name, total_run_count) and its job filters;
    // its first_run and last_run name no field of the model: here the start and the last run.
    exclude: ["user", "task", "interval", "queue", "last_run_at", "date_changed", "description", "approved_by_user", "approval_required",
      "approved_at", "crontab", "job_class", "start_time"],
    aliases: { first_run: "start_time", last_run: "last_run_at" },
  },
});
