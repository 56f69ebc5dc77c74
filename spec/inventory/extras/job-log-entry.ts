import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const LogLevel = choices("LogLevel", [
  ["default", "Default"], ["success", "Success"], ["info", "Info"], ["warning", "Warning"], ["failure", "Failure"],
]);

// Nautobot's JobLogEntry: one line a job logged, stored as it is written (apart from the job's
// own transaction), so it is read while the job runs and kept when the job's writes are not.
export default model("JobLogEntry", {
  app: "extras",
  route: "job-logs",
  verboseName: "job log entry",
  description: "A line a job logged while it ran.",
  // Nautobot's serializer shows the entry's time, as Python's isoformat writes it.
  display: "{created|isoformat}",
  ordering: ["created"],
  operations: ["list", "retrieve"],
  fields: {
    // Its serializer leaves the link to DRF: the result's bare id.
    job_result: ref.fk("extras.JobResult", { relatedName: "logs", readOnly: true, onDelete: "cascade", asId: true }),
    log_level: field.choice(LogLevel, { plain: true, readOnly: true, default: "default" }),
    grouping: field.string({ readOnly: true, maxLength: 100, default: "main" }),
    message: field.text({ readOnly: true }),
    created: field.datetime({ readOnly: true, default: "now" }),
    log_object: field.string({ readOnly: true, nullable: true, maxLength: 200 }),
    absolute_url: field.string({ readOnly: true, nullable: true, maxLength: 255 }),
  },
  // Nautobot has a nested serializer but never finds it: brief lists show the full form.
  nested: ["absolute_url", "created", "grouping", "log_level", "log_object", "message"],
  brief: ["absolute_url", "created", "grouping", "job_result", "log_level", "log_object", "message"],
  indexes: [{ fields: ["job_result", "created"] }],
  filters: { q: ["grouping", "message"] },
});
