import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const JobResultStatus = choices("JobResultStatus", [
  ["pending", "Pending"], ["running", "Running"], ["completed", "Completed"], ["errored", "Errored"], ["failed", "Failed"],
]);

// Nautobot's JobResult: one run of a job, made pending by a run request and carried to an end
// by the queue worker that runs it (runtime/features/jobs/). Only read and deleted through the API.
export default model("JobResult", {
  app: "extras",
  route: "job-results",
  description: "One run of a job: who ran it, with what, how it went and what it gave.",
  display: "{job_id}",
  ordering: ["-created"],
  features: ["customFields"],
  operations: ["list", "retrieve", "delete"],
  hooks: "extras/job-result",
  fields: {
    created: field.datetime({ autoNow: "create" }),
    completed: field.datetime({ nullable: true, readOnly: true }),
    // The job's class path (source/module/Class), kept when the job record goes.
    name: field.string({ readOnly: true, maxLength: 255 }),
    job_model: ref.fk("extras.Job", { relatedName: "results", nullable: true, readOnly: true, onDelete: "setNull" }),
    obj_type: field.contentType({ models: ["extras.Job"], readOnly: true, verboseName: "Object types" }),
    status: field.choice(JobResultStatus, { readOnly: true, default: "pending" }),
    user: ref.fk("users.User", { relatedName: "+", nullable: true, readOnly: true, onDelete: "setNull" }),
    // `{"output": …}`: what the job's run gave.
    data: field.json({ nullable: true, readOnly: true }),
    // The run's own id (Nautobot's Celery task id), given when the result is made.
    job_id: field.uuid({ readOnly: true, unique: true, nullable: true }),
    // The run's data and commit flag; null for a job that may have sensitive variables.
    job_kwargs: field.json({ nullable: true, readOnly: true }),
    // The scheduled job that fired this run; none for a run started at once.
    schedule: ref.fk("extras.ScheduledJob", { nullable: true, readOnly: true, onDelete: "setNull" }),
  },
  nested: ["name", "created", "completed", "user", "status"],
  actions: {
    logs: {
      description: "The result's log entries, oldest first",
      response: { type: "array", items: { $ref: "#/components/schemas/NestedJobLogEntry" } },
    },
  },
  indexes: [{ fields: ["status", "created"] }, { fields: ["completed"] }, { fields: ["name"] }],
  filters: {
    q: ["name"],
    // JobResultFilterSet's Meta fields, with the job (by id or slug).
    exclude: ["data", "job_id", "job_kwargs", "schedule"],
  },
});
